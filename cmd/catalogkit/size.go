package main

import (
	"fmt"
	"strconv"
	"strings"
)

// sizeFlag is a flag.Value for a number of bytes: "1048576", "64KiB",
// "8MiB", "1GiB".
type sizeFlag int64

var sizeUnits = []struct {
	suffix string
	scale  int64
}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}, {"B", 1}}

func (s *sizeFlag) Set(text string) error {
	num, scale := text, int64(1)
	for _, u := range sizeUnits {
		if n, ok := strings.CutSuffix(text, u.suffix); ok {
			num, scale = n, u.scale
			break
		}
	}
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil || n <= 0 || n > (1<<62)/scale {
		return fmt.Errorf("want a positive number of bytes such as 65536, 64KiB, 8MiB or 1GiB")
	}
	*s = sizeFlag(n * scale)
	return nil
}

func (s *sizeFlag) String() string {
	if s == nil {
		return "0"
	}
	n := int64(*s)
	for _, u := range sizeUnits {
		if n >= u.scale && n%u.scale == 0 {
			return strconv.FormatInt(n/u.scale, 10) + u.suffix
		}
	}
	return strconv.FormatInt(n, 10)
}
