package sign

import "fmt"

// ScryptMemory is the memory minisign's key derivation (scrypt with
// N = 2^20, r = 8) takes to encrypt or decrypt a secret key: 1 GiB.
const ScryptMemory = 1 << 30

// scryptHeadroom is what the process needs beside scrypt's buffer.
const scryptHeadroom = 128 << 20

// A MemoryError says that this process may not get the memory scrypt needs,
// so that encrypting or decrypting a key would end it with an out-of-memory
// crash instead of an error.
type MemoryError struct {
	Need      int64  // bytes scrypt and the process need
	Limit     string // what limits it: "ulimit -v" or "the cgroup's memory.max"
	Available int64  // bytes the process may still take under Limit
}

func (e *MemoryError) Error() string {
	return fmt.Sprintf("the key's password derivation (scrypt, as minisign does it) needs %d MiB of memory, and %s leaves this process %d MiB", e.Need>>20, e.Limit, e.Available>>20)
}

// CheckScryptMemory returns a *[MemoryError] when a limit on this process
// (its address space, or its cgroup's memory) leaves too little for scrypt
// to use memory bytes (a key's memlimit; [ScryptMemory] for a new key), and
// nil when there is room or no limit can be read.
func CheckScryptMemory(memory int64) error {
	need := memory + scryptHeadroom
	for _, l := range limits() {
		if l.available < need {
			return &MemoryError{Need: need, Limit: l.name, Available: max(l.available, 0)}
		}
	}
	return nil
}

// limits is memoryLimits, or a test's stand-in.
var limits = memoryLimits

type memoryLimit struct {
	name      string
	available int64
}
