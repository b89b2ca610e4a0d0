package sandbox

import (
	"encoding/binary"
	"fmt"
	"os"
	"runtime"

	"golang.org/x/sys/unix"
)

// The seccomp filter bwrap installs in the sandbox (its --seccomp option,
// as Flatpak does): the system calls of the kernel's key management
// facility fail with EPERM, so a test can neither read nor add to the
// keyrings of the user who runs it (a secret kept in the session keyring
// is otherwise readable from inside the namespaces). Every other system
// call is allowed: the filter closes one door, it is not an allow-list.
//
// The filter is a classic BPF program over struct seccomp_data: it loads
// the architecture the call was made with, and for each architecture this
// process can make calls with (amd64 also runs i386 and x32 binaries,
// arm64 also 32-bit ARM ones) compares the call's number with that
// architecture's numbers for add_key, request_key and keyctl.

// A callArch is one system call convention: its AUDIT_ARCH value and its
// numbers of the calls refused (x32's calls are amd64's with bit 30 set,
// under amd64's AUDIT_ARCH).
type callArch struct {
	audit uint32
	nrs   []uint32
}

// keyCalls returns, for GOARCH, every convention a process of this
// architecture can call the kernel with, each with its numbers of add_key,
// request_key and keyctl; nil where the filter is not written.
func keyCalls(goarch string) []callArch {
	const x32 = 0x40000000
	switch goarch {
	case "amd64":
		return []callArch{
			{audit: unix.AUDIT_ARCH_X86_64, nrs: []uint32{248, 249, 250, x32 | 248, x32 | 249, x32 | 250}},
			{audit: unix.AUDIT_ARCH_I386, nrs: []uint32{286, 287, 288}},
		}
	case "arm64":
		return []callArch{
			{audit: unix.AUDIT_ARCH_AARCH64, nrs: []uint32{217, 218, 219}},
			{audit: unix.AUDIT_ARCH_ARM, nrs: []uint32{309, 310, 311}},
		}
	}
	return nil
}

// seccompProgram returns the filter for goarch as the bytes bwrap reads:
// struct sock_filter records in the machine's byte order.
func seccompProgram(goarch string) ([]byte, error) {
	arches := keyCalls(goarch)
	if arches == nil {
		return nil, fmt.Errorf("no seccomp filter is written for %s (only amd64 and arm64)", goarch)
	}
	const (
		offNr   = 0 // offsetof(struct seccomp_data, nr)
		offArch = 4 // offsetof(struct seccomp_data, arch)
	)
	allow := uint32(unix.SECCOMP_RET_ALLOW)
	deny := uint32(unix.SECCOMP_RET_ERRNO) | uint32(unix.EPERM)
	var prog []unix.SockFilter
	ins := func(code uint16, jt, jf uint8, k uint32) {
		prog = append(prog, unix.SockFilter{Code: code, Jt: jt, Jf: jf, K: k})
	}
	// The deny is the program's last instruction; a jump to it is
	// counted from the instruction after the jump, and is patched once
	// the program's length is known.
	var toDeny []int
	ins(unix.BPF_LD|unix.BPF_W|unix.BPF_ABS, 0, 0, offArch)
	for _, a := range arches {
		// Not this architecture: skip its block (load, compares, allow).
		ins(unix.BPF_JMP|unix.BPF_JEQ|unix.BPF_K, 0, uint8(len(a.nrs)+2), a.audit)
		ins(unix.BPF_LD|unix.BPF_W|unix.BPF_ABS, 0, 0, offNr)
		for _, nr := range a.nrs {
			toDeny = append(toDeny, len(prog))
			ins(unix.BPF_JMP|unix.BPF_JEQ|unix.BPF_K, 0, 0, nr)
		}
		ins(unix.BPF_RET|unix.BPF_K, 0, 0, allow)
	}
	// An architecture not listed: no call of it is one of ours.
	ins(unix.BPF_RET|unix.BPF_K, 0, 0, allow)
	ins(unix.BPF_RET|unix.BPF_K, 0, 0, deny)
	last := len(prog) - 1
	for _, i := range toDeny {
		off := last - i - 1
		if off > 255 {
			return nil, fmt.Errorf("seccomp filter: jump of %d instructions", off)
		}
		prog[i].Jt = uint8(off)
	}
	out := make([]byte, 0, 8*len(prog))
	for _, f := range prog {
		out = binary.NativeEndian.AppendUint16(out, f.Code)
		out = append(out, f.Jt, f.Jf)
		out = binary.NativeEndian.AppendUint32(out, f.K)
	}
	return out, nil
}

// seccompFile returns the read end of a pipe holding the filter for this
// machine, for bwrap's --seccomp: the filter is a few hundred bytes, well
// within a pipe's buffer, so it is written before bwrap starts.
func seccompFile() (*os.File, error) {
	prog, err := seccompProgram(runtime.GOARCH)
	if err != nil {
		return nil, err
	}
	r, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	_, err = w.Write(prog)
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		r.Close()
		return nil, err
	}
	return r, nil
}
