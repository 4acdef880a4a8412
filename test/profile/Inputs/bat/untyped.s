# Hand-written x86-64 for BOLT's function names in BAT mode: _start and
# step have no .type (untyped symbols), scale is a local function of a
# named file (BAT mode names it scale/untyped.s/1), never is an untyped
# local that never runs. Linked without libc; exits by system call.
	.file	"untyped.s"
	.text
	.globl	_start
_start:
	.cfi_startproc
	movl	$3000, %r12d
.Lloop:
	movl	%r12d, %edi
	call	step
	movl	%eax, %edi
	call	scale
	testl	$255, %r12d
	jnz	.Lnext
	call	rare
.Lnext:
	decl	%r12d
	jnz	.Lloop
	movl	$60, %eax
	xorl	%edi, %edi
	syscall
	.cfi_endproc

	.globl	step
step:
	.cfi_startproc
	movl	%edi, %eax
	andl	$3, %eax
	jz	.Lzero
	addl	$7, %eax
	ret
.Lzero:
	subl	$1, %eax
	ret
	.cfi_endproc

	.type	scale, @function
scale:
	.cfi_startproc
	leal	(%rdi,%rdi,2), %eax
	cmpl	$10, %eax
	jb	.Lsmall
	shrl	$1, %eax
.Lsmall:
	ret
	.cfi_endproc
	.size	scale, .-scale

	.type	rare, @function
rare:
	.cfi_startproc
	xorl	%eax, %eax
	ret
	.cfi_endproc
	.size	rare, .-rare

never:
	.cfi_startproc
	movl	$1, %eax
	ret
	.cfi_endproc

	.section	.note.GNU-stack,"",@progbits
