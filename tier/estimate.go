package tier

import (
	"fmt"
	"runtime"

	"github.com/tateti-lab/tateti-lab/db"
	"github.com/tateti-lab/tateti-lab/internal/atomicfile"
	"github.com/tateti-lab/tateti-lab/internal/figure"
	"github.com/tateti-lab/tateti-lab/internal/gc"
	"github.com/tateti-lab/tateti-lab/rules"
	"github.com/tateti-lab/tateti-lab/search"
)

// Estimate is what a tier solve of a game needs, worked out before it
// starts from the placements of each ply.
type Estimate struct {
	Layout     string `json:"layout"`
	Placements int64  `json:"placements"` // every ply's, reachable or not
	Memory     uint64 `json:"memory"`     // the most held at once
	// Disk bounds what the folder holds at once: every ply's reach bits and
	// codes uncompressed (the tier files take less), the parts of the ply
	// being assembled beside its tier, and an opening book's journal of
	// searched answers (a record a placement of its last ply).
	Disk uint64 `json:"disk"`
	// ReachMemory and ReachDisk are what the forward pass alone needs
	// (Reach): a bit a placement, two plies at once.
	ReachMemory uint64 `json:"reach_memory"`
	ReachDisk   uint64 `json:"reach_disk"`
	// Tasks is the number of tasks of every ply (Job.Tasks): what an
	// engine schedules.
	Tasks int64 `json:"tasks"`
	// Seconds is the time the run would take at the rates measured on the
	// build machine (rates): a guide, not a promise. WorkerSeconds is the
	// same for one worker, the measure of a cluster's work.
	Seconds       float64 `json:"seconds"`
	WorkerSeconds float64 `json:"worker_seconds"`
	// CountSeconds is the share of Seconds of a win/draw/loss database's
	// forward pass, which counts the positions play reaches once its
	// tiers are written (WDLJob.ReachValues).
	CountSeconds float64 `json:"count_seconds,omitempty"`
	// BeamTask is the memory a task of a win/draw/loss solve holds on
	// Beam: the next ply's codes whole, and its own range's.
	BeamTask uint64 `json:"beam_task,omitempty"`
	// Searches bounds the positions an opening book's last ply has searched
	// (its placements), whose time depends on the positions: Seconds
	// leaves them out. SearchPly is that ply.
	Searches  int64 `json:"searches,omitempty"`
	SearchPly int   `json:"search_ply,omitempty"`
	// Tables is the part of Memory those searches' tables take, a worker's
	// each (search.TableBytesFor): memory mapped for them, outside the
	// heap, which the collector's soft limit leaves out (Policy).
	Tables uint64 `json:"search_tables,omitempty"`
}

// overhead is what a run holds besides its plies: the program, the
// runtime, the rank tables and each worker's compressor.
const overhead = 64 << 20

// rates are the placements a second one worker solved, both passes, on
// the 2-core build machine (docs/performance.md, "Tier by tier"): Connect
// Four 6x5 and gravity 5x5 under gravity, free 4x5 with k=4 under free
// placement, where a position has many more children. A second worker
// added about half as much again.
// The diagram's is the win/draw/loss solve's positions (WDLJob), from
// gravity 5x6 k=4: 1.9 billion positions in 350 s on two workers.
var rates = map[string]float64{"heights": 7.5e6, "comb": 2.0e6, "diagram": 3.6e6}

// countRate is the boards a second one worker's forward pass over a
// finished win/draw/loss database takes (WDLJob.ReachValues): gravity
// 5x5 k=4's pass took 1.12 times its solve's time, one worker, in turns
// with the solve alone (docs/performance.md).
const countRate = 3.6e6 / 1.12

// speedup is what workers goroutines do in the time of one, at the rates
// measured: a second worker added about half as much again.
func speedup(workers int) float64 { return 1 + 0.5*float64(min(workers, runtime.NumCPU())-1) }

// EstimateFor gives the estimate of a tier solve of rl's game with workers
// goroutines. Memory is the largest of the forward pass (two plies' bits) and the backward pass
// (two buffers of codes as large as the largest ply, a ply's compressed
// blocks, at most its codes, and its bits); disk, every ply's bits and codes
// before compression.
func EstimateFor(rl rules.Rules, workers int) (Estimate, error) {
	j, err := NewJob(rl)
	if err != nil {
		return Estimate{}, err
	}
	return EstimateJob(j, workers)
}

// EstimateJob is EstimateFor of job, the whole game or an opening book,
// whose search tasks hold a table each beside the rest (what a position of
// the last ply wants, within SearchMemory a worker) and the codes searched
// at the last ply, a byte a rank.
func EstimateJob(j *Job, workers int) (Estimate, error) {
	l, n := j.layout, j.Plies()
	if n > db.MaxDepth {
		return Estimate{}, fmt.Errorf("a board of %d cells has more than the %d plies a database's byte holds", n, db.MaxDepth)
	}
	total, largest := sizes(l, n)
	e := Estimate{Layout: l.Name(), Placements: total}
	var forward, backward uint64
	for p := 0; p <= n; p++ {
		size, bits := uint64(l.Size(p)), 8*uint64(words(l.Size(p)))
		e.Disk += size + bits
		e.ReachDisk += bits
		backward = max(backward, size+bits)
		if p < n {
			forward = max(forward, bits+8*uint64(words(l.Size(p+1))))
		}
	}
	e.Disk += uint64(largest) // a ply's parts beside its tier as it is assembled
	e.ReachMemory = forward + overhead
	e.Memory = max(forward, 2*uint64(largest)+backward) + overhead
	for p := 0; p <= n; p++ {
		e.Tasks += int64(j.Tasks(p))
	}
	e.WorkerSeconds = float64(e.Placements) / rates[e.Layout]
	e.Seconds = e.WorkerSeconds / speedup(workers)
	if last, ok := j.Book(); ok {
		e.Searches, e.SearchPly = l.Size(last), last
		e.Disk += searchedHead + searchedRecord*uint64(l.Size(last))
		e.Memory += uint64(l.Size(last)) // the codes searched, a byte a rank
		e.Tables = uint64(max(workers, 1)) * search.TableBytesFor(j.rl.Spec(), search.TableBitsFor(SearchMemory), j.cells-last)
		e.Memory += e.Tables
	}
	return e, nil
}

// Check says why the estimate does not fit memory bytes (0: unknown) or
// the disk free at dir, if it does not.
func (e Estimate) Check(memory uint64, dir string) error {
	return check("a tier solve", e.Memory, e.Disk, memory, dir)
}

// CheckDisk says why the estimate does not fit the disk free at dir, if it
// does not: what a run that holds a task's range at a time, the Beam pipeline's,
// asks of a local folder.
func (e Estimate) CheckDisk(dir string) error {
	return check("a tier solve", 0, e.Disk, 0, dir)
}

// CheckReach is Check for the forward pass alone (Reach).
func (e Estimate) CheckReach(memory uint64, dir string) error {
	return check("the forward pass of a tier solve", e.ReachMemory, e.ReachDisk, memory, dir)
}

// check says why a pass that holds need bytes and writes disk bytes does
// not fit memory bytes (0: unknown) or the disk free at dir, if it does
// not.
func check(what string, need, disk, memory uint64, dir string) error {
	if memory != 0 && need > memory {
		return fmt.Errorf("%s holds up to %s at once, more than the %s this run may use; raise TATETI_MEMORY if the machine has more", what, figure.Bytes(need), figure.Bytes(memory))
	}
	if free := atomicfile.Free(dir); free != 0 && disk > free {
		return fmt.Errorf("%s may write up to %s, more than the %s free for folder %q; free some space or name a folder on another disk", what, figure.Bytes(disk), figure.Bytes(free), dir)
	}
	return nil
}

// Policy is what the collector is asked for during the whole solve: a
// collection at a fifth more heap, not double, since the plies live in
// buffers made once, so a collection costs little, and the scratch of each
// ply (its reach bits, its compressed blocks) would otherwise hold the peak
// above the estimate (Connect Four 6x5: 4.2 GB at the default); and a soft
// limit at the estimate, so that the fifth of headroom over plies of
// gigabytes gives way before the estimate does. The search tables of a
// book's last ply are mapped outside the heap, which the limit counts: it
// leaves them out, else the heap could take their room too.
func (e Estimate) Policy() gc.Policy { return gc.Policy{Percent: 20, Limit: e.Memory - e.Tables} }

// ReachPolicy is Policy for the forward pass alone, limited at its own
// estimate.
func (e Estimate) ReachPolicy() gc.Policy { return gc.Policy{Percent: 20, Limit: e.ReachMemory} }

// Needs says in a sentence what a tier solve needs: its placements and
// tasks, memory, disk, and time here and on a cluster.
func (e Estimate) Needs() string {
	if e.Searches > 0 {
		return fmt.Sprintf("%s placements (%s layout) in %s tasks, up to %s of memory and %s of disk, and up to %s positions of ply %d searched, whose time depends on the positions (the rest about %s here)",
			figure.Commas(e.Placements), e.Layout, figure.Commas(e.Tasks), figure.Bytes(e.Memory), figure.Bytes(e.Disk), figure.Commas(e.Searches), e.SearchPly, figure.Seconds(e.Seconds))
	}
	count := ""
	if e.CountSeconds > 0 {
		count = fmt.Sprintf(", the count of the positions play reaches about %s of it", figure.Seconds(e.CountSeconds))
	}
	return fmt.Sprintf("%s %s (%s layout) in %s tasks, up to %s of memory and %s of disk, about %s at this build machine's rate%s (%s for one worker: a cluster's work)",
		figure.Commas(e.Placements), e.noun(), e.Layout, figure.Commas(e.Tasks), figure.Bytes(e.Memory), figure.Bytes(e.Disk), figure.Seconds(e.Seconds), count, figure.Seconds(e.WorkerSeconds))
}

// noun names what the layout ranks: every placement, or under the
// diagram the boards with no line.
func (e Estimate) noun() string {
	if db.Packed(e.Layout) {
		return "boards with no line"
	}
	return "placements"
}

// BeamNeeds says in a sentence what the tier solve needs as the Beam
// pipeline runs it (beam/): its placements and tasks, what a task holds
// (its own task's codes and bits, and as many of the next ply's tasks as its
// children fall in; the step that writes a tier file holds one part), the
// disk, and one worker's time.
func (e Estimate) BeamNeeds() string {
	if db.Packed(e.Layout) {
		return fmt.Sprintf("%s %s (%s layout) in %s tasks; a task holds up to %s, the next ply's codes whole and its own range's; up to %s of disk; about %s of one worker's work at this build machine's rate, then the count of the positions play reaches on one machine (db build DIR)",
			figure.Commas(e.Placements), e.noun(), e.Layout, figure.Commas(e.Tasks), figure.Bytes(e.BeamTask), figure.Bytes(e.Disk), figure.Seconds(e.WorkerSeconds-e.CountSeconds)) // Beam estimates with one worker: CountSeconds is one worker's
	}
	task := uint64(TaskPlacements) + TaskPlacements/8
	return fmt.Sprintf("%s placements (%s layout) in %s tasks; a task holds up to %s for its own range and as much again for each range of the next ply its children fall in (a few under gravity); up to %s of disk; about %s of one worker's work at this build machine's rate",
		figure.Commas(e.Placements), e.Layout, figure.Commas(e.Tasks), figure.Bytes(task), figure.Bytes(e.Disk), figure.Seconds(e.WorkerSeconds))
}

// ReachNeeds says in a sentence what the forward pass of a tier solve
// needs: its placements, memory and disk.
func (e Estimate) ReachNeeds() string {
	return fmt.Sprintf("%s %s (%s layout), a bit each, up to %s of memory and %s of disk", figure.Commas(e.Placements), e.noun(), e.Layout, figure.Bytes(e.ReachMemory), figure.Bytes(e.ReachDisk))
}

// CountNeeds says what a win/draw/loss database's forward pass needs,
// when it is all that is left to do: its time.
func (e Estimate) CountNeeds() string {
	return fmt.Sprintf("about %s at this build machine's rate", figure.Seconds(e.CountSeconds))
}
