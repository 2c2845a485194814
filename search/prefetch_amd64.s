// prefetchSlots for amd64: PREFETCHT0 of each hash's slot (prefetch_amd64.go).

#include "textflag.h"

// func prefetchSlots(slots *atomic.Uint64, mask uint64, hs *uint64, n int)
TEXT ·prefetchSlots(SB), NOSPLIT|NOFRAME, $0-32
	MOVQ slots+0(FP), AX
	MOVQ mask+8(FP), CX
	MOVQ hs+16(FP), SI
	MOVQ n+24(FP), DX
	TESTQ DX, DX
	JLE done
loop:
	MOVQ (SI), BX
	ANDQ CX, BX
	PREFETCHT0 (AX)(BX*8)
	ADDQ $8, SI
	DECQ DX
	JNZ loop
done:
	RET
