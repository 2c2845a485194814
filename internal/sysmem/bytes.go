package sysmem

import (
	"errors"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
)

// Env is the environment variable that caps the memory a run may plan on.
const Env = "TATETI_MEMORY"

// units are the suffixes an amount of memory may carry, by what people
// write: the binary ones (K, KiB, M, MiB, ...) in powers of 1024, as
// GOMEMLIMIT and docker take them, and the decimal ones (kB, MB, GB, TB)
// in powers of 1000. Letters are read in either case.
var units = map[string]float64{
	"": 1, "b": 1,
	"k": 1 << 10, "kib": 1 << 10, "m": 1 << 20, "mib": 1 << 20,
	"g": 1 << 30, "gib": 1 << 30, "t": 1 << 40, "tib": 1 << 40,
	"kb": 1e3, "mb": 1e6, "gb": 1e9, "tb": 1e12,
}

// errAmount is the end of every refusal of an amount: the forms accepted.
var errAmount = errors.New("want bytes (3000000000) or a number and a unit, such as 4G, 512MiB or 1.5GB")

// ParseBytes reads an amount of memory: whole bytes, or a number (a
// fraction too) followed by a unit of units. It refuses zero, a negative
// amount, and one past 2^63 bytes, more than any machine holds.
func ParseBytes(s string) (uint64, error) {
	t := strings.TrimSpace(s)
	end := strings.LastIndexFunc(t, func(r rune) bool { return r >= '0' && r <= '9' || r == '.' }) + 1
	num, unit := t[:end], strings.ToLower(strings.TrimSpace(t[end:]))
	scale, ok := units[unit]
	if !ok || num == "" || strings.IndexFunc(num, func(r rune) bool { return !(r >= '0' && r <= '9' || r == '.') }) >= 0 {
		return 0, fmt.Errorf("%q is not an amount of memory: %w", s, errAmount)
	}
	noAmount := fmt.Errorf("%q is no amount a run can plan on: %w, from 1 byte to 2^63", s, errAmount)
	if scale == 1 {
		u, err := strconv.ParseUint(num, 10, 64)
		switch {
		case err != nil || u > math.MaxInt64:
			return 0, fmt.Errorf("%q is not a count of bytes up to 2^63: %w", s, errAmount)
		case u == 0:
			return 0, noAmount
		}
		return u, nil
	}
	f, err := strconv.ParseFloat(num, 64)
	if err != nil {
		return 0, fmt.Errorf("%q is not an amount of memory: %w", s, errAmount)
	}
	if n := math.Floor(f * scale); n >= 1 && n < 1<<63 {
		return uint64(n), nil
	}
	return 0, noAmount
}

// Cap gives the cap TATETI_MEMORY sets, and whether it sets one; an
// amount it cannot read is an error that names it and the forms accepted.
func Cap() (uint64, bool, error) {
	s, set := os.LookupEnv(Env)
	if !set {
		return 0, false, nil
	}
	n, err := ParseBytes(s)
	if err != nil {
		return 0, true, fmt.Errorf("%s=%w; or unset it to plan on the memory the machine has free", Env, err)
	}
	return n, true, nil
}
