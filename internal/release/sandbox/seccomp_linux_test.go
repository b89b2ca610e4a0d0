package sandbox

import (
	"encoding/binary"
	"slices"
	"testing"

	"golang.org/x/sys/unix"
)

// runFilter interprets the classic BPF program prog (as bwrap reads it)
// on a struct seccomp_data with only nr and arch set, the instructions the
// filter uses (load word at an absolute offset, jump if equal, return).
func runFilter(t *testing.T, prog []byte, arch, nr uint32) uint32 {
	t.Helper()
	var acc uint32
	for pc := 0; pc*8 < len(prog); pc++ {
		f := prog[pc*8:]
		code, jt, jf, k := binary.NativeEndian.Uint16(f), f[2], f[3], binary.NativeEndian.Uint32(f[4:])
		switch code {
		case unix.BPF_LD | unix.BPF_W | unix.BPF_ABS:
			switch k {
			case 0:
				acc = nr
			case 4:
				acc = arch
			default:
				t.Fatalf("instruction %d loads offset %d", pc, k)
			}
		case unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K:
			if acc == k {
				pc += int(jt)
			} else {
				pc += int(jf)
			}
		case unix.BPF_RET | unix.BPF_K:
			return k
		default:
			t.Fatalf("instruction %d has code %#x", pc, code)
		}
	}
	t.Fatal("the program ran off its end")
	return 0
}

// TestSeccompProgram checks the filter of each architecture it is written
// for: the three key-management calls of every calling convention fail
// with EPERM, their neighbours and the same numbers under another
// convention are allowed, and an unknown architecture is allowed.
func TestSeccompProgram(t *testing.T) {
	const eperm = unix.SECCOMP_RET_ERRNO | uint32(unix.EPERM)
	for _, goarch := range []string{"amd64", "arm64"} {
		prog, err := seccompProgram(goarch)
		if err != nil {
			t.Fatal(err)
		}
		arches := keyCalls(goarch)
		for _, a := range arches {
			for _, nr := range a.nrs {
				if got := runFilter(t, prog, a.audit, nr); got != eperm {
					t.Errorf("%s: arch %#x call %d: %#x, want EPERM", goarch, a.audit, nr, got)
				}
				for _, other := range []uint32{nr - 3, nr + 3} {
					if got := runFilter(t, prog, a.audit, other); got != unix.SECCOMP_RET_ALLOW && !slices.Contains(a.nrs, other) {
						t.Errorf("%s: arch %#x call %d: %#x, want allowed", goarch, a.audit, other, got)
					}
				}
				if got := runFilter(t, prog, 0xdead, nr); got != unix.SECCOMP_RET_ALLOW {
					t.Errorf("%s: unknown arch, call %d: %#x, want allowed", goarch, nr, got)
				}
			}
		}
		// amd64's read(2) is 0 and its keyctl 250; i386's keyctl is 288.
		if goarch == "amd64" {
			if got := runFilter(t, prog, unix.AUDIT_ARCH_I386, 250); got != unix.SECCOMP_RET_ALLOW {
				t.Errorf("i386 call 250 (not keyctl there): %#x, want allowed", got)
			}
			if got := runFilter(t, prog, unix.AUDIT_ARCH_X86_64, 288); got != unix.SECCOMP_RET_ALLOW {
				t.Errorf("amd64 call 288 (accept4): %#x, want allowed", got)
			}
		}
	}
	if _, err := seccompProgram("mips"); err == nil {
		t.Error("a filter for mips, which is not written")
	}
}
