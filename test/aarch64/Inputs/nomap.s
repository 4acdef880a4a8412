// nomap arm64: hand-written code without .llvm_bb_addr_map, some of it
// without .type %function: indirect tail calls through a register after a
// load from the stack (BOLT's epilogue rule) and without one, a loop and a
// local label inside a function.
	.text
	.globl	main
	.type	main, %function
main:
	stp	x29, x30, [sp, #-32]!
	mov	x29, sp
	str	x19, [sp, #16]
	mov	w19, #300
.Lloop:
	mov	w0, w19
	bl	dispatch
	mov	w0, w19
	bl	untyped
	mov	w0, w19
	bl	pick
	subs	w19, w19, #1
	b.ne	.Lloop
	mov	w0, #0
	ldr	x19, [sp, #16]
	ldp	x29, x30, [sp], #32
	ret
	.size	main, .-main

// Picks a leaf by the argument's low bit and tail-calls it.
	.globl	dispatch
	.type	dispatch, %function
dispatch:
	stp	x29, x30, [sp, #-16]!
	tbz	w0, #0, .Lplain
	adrp	x16, leaf_a
	add	x16, x16, :lo12:leaf_a
	ldp	x29, x30, [sp], #16
	br	x16
.Lplain:
	ldp	x29, x30, [sp], #16
	adrp	x17, leaf_b
	add	x17, x17, :lo12:leaf_b
	br	x17
	.size	dispatch, .-dispatch

// Frameless: its jumps through a register follow no load from the stack.
	.globl	pick
	.type	pick, %function
pick:
	tbz	w0, #1, .Lother
	adrp	x16, leaf_a
	add	x16, x16, :lo12:leaf_a
	br	x16
.Lother:
	adrp	x16, leaf_b
	add	x16, x16, :lo12:leaf_b
	br	x16
	.size	pick, .-pick

	.type	leaf_a, %function
leaf_a:
	add	w0, w0, #1
	ret
	.size	leaf_a, .-leaf_a

	.type	leaf_b, %function
leaf_b:
	add	w0, w0, #2
	ret
	.size	leaf_b, .-leaf_b

// No .type and no .size: BOLT sees a function only from the symbol.
	.globl	untyped
untyped:
	mov	w1, w0
	mov	w0, #0
inner:
	add	w0, w0, w1
	lsr	w1, w1, #1
	cbnz	w1, inner
	ret
	.section	.note.GNU-stack,"",%progbits
