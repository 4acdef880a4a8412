/* trace-plugin.c - QEMU user-mode TCG plugin that records the exact control
 * flow of a single-threaded guest program as straight-line runs.
 *
 * Build:  cc -O2 -shared -fPIC -o trace-plugin.so trace-plugin.c
 * Run:    qemu-x86_64 -plugin ./trace-plugin.so,out=TRIPLES ./program args
 *
 * Every executed translation block (TB) calls on_tb_exec() with the TB's
 * start, the address of its last instruction and its end. When a TB does not
 * start where the previous one ended, control took a branch from the
 * previous TB's last instruction to the new TB's start. The plugin counts, in
 * a hash map, the triples (RunStart, BranchSource, BranchTarget): the run of
 * instructions [RunStart, BranchSource] executed straight, then control went
 * to BranchTarget (which becomes the next RunStart). At exit it writes
 *
 *   # exact-trace 1
 *   # start_code 0x...   # end_code 0x...   # entry 0x...
 *   # map LO-HI OFFSET PATH               (each file mapping, guest-maps.h)
 *   RUNSTART SOURCE TARGET COUNT          (hex, hex, hex, decimal)
 *
 * plus one final run whose TARGET is 0: the run that was executing when the
 * program exited. '#' lines are comments; start_code/end_code/entry are what
 * QEMU reports for the main executable (see README.md for the load bias);
 * the map lines say where every object was loaded (a shared library's bias).
 *
 * Rules:
 *  - The next two rules are x86's (QEMU's target_name x86_64 or i386); on
 *    other targets (arm64: fixed 4-byte aligned instructions, no string
 *    loops) a TB starting at the previous TB's last instruction is a branch.
 *  - x86 rep-prefixed string instructions (rep movs/stos/lods/ins/outs,
 *    repe/repne cmps/scas) end their TB after one iteration and jump back to
 *    themselves while the count register is non-zero. A jump from X to X
 *    where X is the previous TB's last instruction and that instruction is a
 *    rep string instruction is therefore not a branch: the run goes on, and
 *    the instruction counts as one execution however many iterations it did.
 *  - An instruction that crosses a page boundary is not executed by the TB
 *    that reaches it: QEMU 7.2 ends that TB before the instruction and starts
 *    the next TB with it, but the plugin API still lists it as the first
 *    TB's last instruction, with only the bytes read before the translator
 *    gave up (so its size is useless). So a TB starting at the previous TB's
 *    last instruction, when that instruction starts in the last 14 bytes of
 *    a 4 KiB page (an x86 instruction has at most 15), also continues the
 *    run. (A real jump from an instruction to itself is an endless loop.)
 *  - TBs split at page boundaries, at QEMU's per-TB instruction limit or
 *    after a syscall continue at the previous end: that is a fall-through,
 *    not a branch. On x86 so is a jump whose target is the next
 *    instruction. On arm64 a TB whose last instruction always transfers
 *    control (b, bl, br, blr, ret and their pointer-authenticating forms)
 *    branches even to the next instruction, as branch-record hardware
 *    records it: a call of a noreturn function at a function's end whose
 *    callee comes next, a jump to the next function in a rebuilt layout.
 *  - Single-threaded programs only: QEMU user mode runs each guest thread as
 *    its own vCPU; the plugin ignores vCPUs other than 0 and marks the output
 *    with "# error: ..." so that consumers reject it. A forked child that
 *    does not exec writes nothing (only the process that loaded the plugin
 *    writes the file).
 *
 * The plugin API declarations are in qemu-plugin-api.h (QEMU ships no
 * qemu-plugin.h in Debian).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "guest-maps.h"
#include "plugin-output.h"
#include "qemu-plugin-api.h"

EXPORT int qemu_plugin_version = PLUGIN_API_VERSION;

/* ---- Run counting ----------------------------------------------------- */

/* What the exec callback needs to know about one translated TB. */
struct tb_info {
  uint64_t start; /* first instruction */
  uint64_t last;  /* last instruction */
  uint64_t end;   /* last + its size */
  /* Whether a TB starting at `last` right after this one continues this
   * run instead of being a branch from `last` to itself (see the rules). */
  bool resumes_at_last;
  /* The last instruction always transfers control: a TB starting at `end`
   * right after this one was branched to (see the rules). */
  bool always_branches;
};

struct entry {
  uint64_t run_start, source, target, count; /* count 0: empty slot */
};

static struct entry *table;
static size_t table_mask; /* capacity - 1, capacity a power of two */
static size_t table_used;

static uint64_t run_start;
static const struct tb_info *prev; /* the TB executed last, NULL at start */
static bool other_vcpu_seen;
static pid_t owner_pid;
static const char *out_path;
/* The x86 rules below apply (the guest is x86-64 or i386), or the arm64
 * ones (aarch64). */
static bool x86_rules, aarch64_rules;

static size_t slot_of(uint64_t a, uint64_t b, uint64_t c) {
  uint64_t h = a * 0x9e3779b97f4a7c15ull;
  h ^= (b + (h >> 29)) * 0xbf58476d1ce4e5b9ull;
  h ^= (c + (h >> 31)) * 0x94d049bb133111ebull;
  return (size_t)(h ^ (h >> 32)) & table_mask;
}

static void table_init(size_t capacity) {
  table = calloc(capacity, sizeof *table);
  if (!table) {
    fprintf(stderr, "trace-plugin: out of memory\n");
    abort();
  }
  table_mask = capacity - 1;
  table_used = 0;
}

static void add(uint64_t a, uint64_t b, uint64_t c, uint64_t n);

static void grow(void) {
  struct entry *old = table;
  size_t old_cap = table_mask + 1;
  table_init(old_cap * 2);
  for (size_t i = 0; i < old_cap; i++)
    if (old[i].count)
      add(old[i].run_start, old[i].source, old[i].target, old[i].count);
  free(old);
}

static void add(uint64_t a, uint64_t b, uint64_t c, uint64_t n) {
  size_t i = slot_of(a, b, c);
  for (;;) {
    struct entry *e = &table[i];
    if (!e->count) {
      *e = (struct entry){a, b, c, n};
      if (++table_used * 2 > table_mask + 1)
        grow();
      return;
    }
    if (e->run_start == a && e->source == b && e->target == c) {
      e->count += n;
      return;
    }
    i = (i + 1) & table_mask;
  }
}

static void on_tb_exec(unsigned int vcpu_index, void *userdata) {
  const struct tb_info *tb = userdata;
  if (vcpu_index != 0) {
    other_vcpu_seen = true;
    return;
  }
  if (!prev) {
    run_start = tb->start;
  } else if ((tb->start != prev->end || prev->always_branches) &&
             !(prev->resumes_at_last && tb->start == prev->last)) {
    add(run_start, prev->last, tb->start, 1);
    run_start = tb->start;
  }
  prev = tb;
}

/* Whether the instruction bytes P[0..N) are a rep/repe/repne-prefixed string
 * instruction: legacy prefixes including F2 or F3, an optional REX prefix,
 * then one of ins, outs, movs, cmps, stos, lods, scas. */
static bool is_rep_string(const uint8_t *p, size_t n) {
  bool rep = false;
  size_t i = 0;
  for (; i < n; i++) {
    uint8_t b = p[i];
    if (b == 0xf2 || b == 0xf3)
      rep = true;
    else if (!(b == 0x66 || b == 0x67 || b == 0xf0 || b == 0x2e ||
               b == 0x36 || b == 0x3e || b == 0x26 || b == 0x64 || b == 0x65))
      break;
  }
  if (i < n && (p[i] & 0xf0) == 0x40)
    i++;
  if (!rep || i >= n)
    return false;
  uint8_t op = p[i];
  return (op >= 0x6c && op <= 0x6f) || (op >= 0xa4 && op <= 0xa7) ||
         (op >= 0xaa && op <= 0xaf);
}

/* Whether the AArch64 instruction P[0..N) always transfers control: b, bl,
 * br, blr, ret, and braa/brab/blraa/blrab/retaa/retab (and the zero-modifier
 * forms), from the A64 encoding tables. */
static bool aarch64_always_branches(const uint8_t *p, size_t n) {
  if (n != 4)
    return false;
  uint32_t w = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
               (uint32_t)p[3] << 24;
  if ((w & 0x7c000000) == 0x14000000) /* b, bl */
    return true;
  /* Unconditional branch (register): opc 0000 (br), 0001 (blr), 0010 (ret),
   * 1000 and 1001 (braa/brab, blraa/blrab), plus the zero-modifier forms
   * with op2 11111 under opc 0000 to 0010. */
  if ((w & 0xfe000000) != 0xd6000000 || ((w >> 16) & 0x1f) != 0x1f)
    return false;
  unsigned opc = (w >> 21) & 0xf;
  return opc <= 2 || opc == 8 || opc == 9;
}

static void on_tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb) {
  (void)id;
  size_t n = qemu_plugin_tb_n_insns(tb);
  if (n == 0)
    return;
  struct qemu_plugin_insn *last = qemu_plugin_tb_get_insn(tb, n - 1);
  struct tb_info *info = malloc(sizeof *info);
  if (!info) {
    fprintf(stderr, "trace-plugin: out of memory\n");
    abort();
  }
  /* TB infos live until exit: a retranslated TB gets a fresh one, and the
   * exec callback of an old copy may still hold a pointer to its info. */
  info->start = qemu_plugin_tb_vaddr(tb);
  info->last = qemu_plugin_insn_vaddr(last);
  size_t size = qemu_plugin_insn_size(last);
  info->end = info->last + size;
  info->resumes_at_last =
      x86_rules && (is_rep_string(qemu_plugin_insn_data(last), size) ||
                    (info->last >> 12) != ((info->last + 14) >> 12));
  info->always_branches =
      aarch64_rules &&
      aarch64_always_branches(qemu_plugin_insn_data(last), size);
  qemu_plugin_register_vcpu_tb_exec_cb(tb, on_tb_exec, CB_NO_REGS, info);
}

static int compare_entries(const void *x, const void *y) {
  const struct entry *a = x, *b = y;
  if (a->run_start != b->run_start)
    return a->run_start < b->run_start ? -1 : 1;
  if (a->source != b->source)
    return a->source < b->source ? -1 : 1;
  if (a->target != b->target)
    return a->target < b->target ? -1 : 1;
  return 0;
}

static void write_triples(qemu_plugin_id_t id, void *userdata) {
  (void)id;
  (void)userdata;
  if (getpid() != owner_pid)
    return;
  if (prev)
    add(run_start, prev->last, 0, 1);
  prev = NULL;
  FILE *f = open_result(out_path, owner_pid);
  if (!f)
    return;
  fprintf(f, "# exact-trace 1\n");
  if (other_vcpu_seen)
    fprintf(f, "# error: the guest ran more than one thread; only thread 0 "
               "was traced\n");
  fprintf(f, "# start_code 0x%llx\n# end_code 0x%llx\n# entry 0x%llx\n",
          (unsigned long long)qemu_plugin_start_code(),
          (unsigned long long)qemu_plugin_end_code(),
          (unsigned long long)qemu_plugin_entry_code());
  write_guest_maps(f);
  size_t k = 0;
  for (size_t i = 0; i <= table_mask; i++)
    if (table[i].count)
      table[k++] = table[i];
  qsort(table, k, sizeof *table, compare_entries);
  for (size_t i = 0; i < k; i++)
    fprintf(f, "%llx %llx %llx %llu\n",
            (unsigned long long)table[i].run_start,
            (unsigned long long)table[i].source,
            (unsigned long long)table[i].target,
            (unsigned long long)table[i].count);
  close_result(f, out_path);
  if (other_vcpu_seen)
    fprintf(stderr, "trace-plugin: more than one guest thread; %s is marked "
                    "invalid\n", out_path);
}

EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
                               int argc, char **argv) {
  if (info->system_emulation) {
    fprintf(stderr, "trace-plugin: user-mode emulation only\n");
    return -1;
  }
  for (int i = 0; i < argc; i++) {
    if (strncmp(argv[i], "out=", 4) == 0) {
      out_path = argv[i] + 4;
    } else {
      fprintf(stderr, "trace-plugin: unknown argument '%s' (use out=FILE)\n",
              argv[i]);
      return -1;
    }
  }
  if (!out_path || !*out_path) {
    fprintf(stderr, "trace-plugin: missing argument out=FILE\n");
    return -1;
  }
  x86_rules = strcmp(info->target_name, "x86_64") == 0 ||
              strcmp(info->target_name, "i386") == 0;
  aarch64_rules = strcmp(info->target_name, "aarch64") == 0;
  owner_pid = getpid();
  table_init(1 << 16);
  qemu_plugin_register_vcpu_tb_trans_cb(id, on_tb_trans);
  qemu_plugin_register_atexit_cb(id, write_triples, NULL);
  return 0;
}
