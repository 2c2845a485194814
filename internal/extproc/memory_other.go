//go:build !linux

package extproc

// watchMemory cannot read a process group's memory here: the bound is not
// kept.
func (p *Proc) watchMemory() {}
