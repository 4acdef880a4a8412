# nomap x86-64: hand-written code without .llvm_bb_addr_map, some of it
# without .type @function: indirect tail calls through a register (after a
# pop: BOLT's epilogue rule), through read-only and writable memory, a
# loop and a local label inside a function.
	.text
	.globl	main
	.type	main, @function
main:
	pushq	%rbx
	movl	$300, %ebx
.Lloop:
	movl	%ebx, %edi
	call	dispatch
	movl	%ebx, %edi
	call	untyped
	subl	$1, %ebx
	jnz	.Lloop
	xorl	%eax, %eax
	popq	%rbx
	ret
	.size	main, .-main

# Picks a leaf by the argument's low bits and tail-calls it.
	.globl	dispatch
	.type	dispatch, @function
dispatch:
	pushq	%rbx
	movl	%edi, %ebx
	testl	$1, %ebx
	jz	.Lviamemory
	leaq	leaf_a(%rip), %rax
	popq	%rbx
	jmp	*%rax
.Lviamemory:
	testl	$2, %ebx
	jz	.Lwritable
	popq	%rbx
	jmp	*readonly_ptr(%rip)
.Lwritable:
	popq	%rbx
	jmp	*writable_ptr(%rip)
	.size	dispatch, .-dispatch

	.type	leaf_a, @function
leaf_a:
	leal	1(%rdi), %eax
	ret
	.size	leaf_a, .-leaf_a

	.type	leaf_b, @function
leaf_b:
	leal	2(%rdi), %eax
	ret
	.size	leaf_b, .-leaf_b

# No .type and no .size: BOLT sees a function only from the symbol.
	.globl	untyped
untyped:
	movl	%edi, %ecx
	xorl	%eax, %eax
inner:
	addl	%ecx, %eax
	shrl	$1, %ecx
	jnz	inner
	ret

	.section	.rodata
	.p2align	3
readonly_ptr:
	.quad	leaf_b
	.data
	.p2align	3
writable_ptr:
	.quad	leaf_a
	.section	.note.GNU-stack,"",@progbits
