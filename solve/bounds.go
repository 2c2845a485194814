package solve

// Bounds are what is proved of a value for X when it is not settled: it
// lies between Low and High (-1 O wins, 0 draw, +1 X wins).
type Bounds struct {
	Low  int8 `json:"low"`
	High int8 `json:"high"`
}

// String says what the bounds prove, in the words of Outcome: "X wins",
// "X does not lose", "nothing yet" and so on.
func (b Bounds) String() string {
	switch {
	case b.Low == b.High:
		return Outcome(b.Low)
	case b.Low == 0:
		return "X does not lose"
	case b.High == 0:
		return "O does not lose"
	}
	return "nothing yet"
}
