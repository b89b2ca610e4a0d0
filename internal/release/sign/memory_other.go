//go:build !linux

package sign

// memoryLimits reads no limits outside Linux.
func memoryLimits() []memoryLimit { return nil }
