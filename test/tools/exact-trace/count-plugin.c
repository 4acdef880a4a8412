/* count-plugin.c - QEMU user-mode TCG plugin that counts how often every
 * guest instruction executed: the truth of the exact-trace checks where
 * valgrind cannot run the program (arm64 on an x86-64 host).
 *
 * Build:  cc -O2 -shared -fPIC -o count-plugin.so count-plugin.c
 * Run:    qemu-aarch64 -L SYSROOT -plugin ./count-plugin.so,out=FILE ./prog
 *
 * Each instruction QEMU translates gets an inline counter increment (QEMU
 * adds one to a 64-bit counter every time the translated instruction
 * executes, without a callback). Counters are kept per guest address, so a
 * retranslated instruction keeps counting in the same place. Nothing here
 * looks at control flow: the counts do not depend on how trace-plugin.c
 * infers branches from translation blocks, which they check. At exit it
 * writes
 *
 *   # insn-counts 1
 *   # start_code 0x...   # end_code 0x...   # entry 0x...
 *   ADDRESS COUNT              (guest address in hex, decimal count)
 *
 * for every instruction that executed, ascending. The header is
 * trace-plugin.c's, so the same scripts find the load bias. vCPU 0 only is
 * not enforced here (inline counters see every thread); the exact-trace
 * programs are single-threaded, and trace-plugin.c rejects others.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "plugin-output.h"
#include "qemu-plugin-api.h"

EXPORT int qemu_plugin_version = PLUGIN_API_VERSION;

struct counter {
  uint64_t address;
  uint64_t count;
};

/* Counters never move once handed to QEMU: the table is an array of
 * blocks, and the hash index holds pointers into them. */
#define BLOCK 4096
static struct counter **blocks;
static size_t n_blocks, n_used;
static struct counter **index_table;
static size_t index_mask;
static const char *out_path;
static pid_t owner_pid;

static void *xcalloc(size_t n, size_t size) {
  void *p = calloc(n, size);
  if (!p) {
    fprintf(stderr, "count-plugin: out of memory\n");
    abort();
  }
  return p;
}

static size_t slot_of(uint64_t address) {
  return (size_t)((address * 0x9e3779b97f4a7c15ull) >> 17) & index_mask;
}

static void grow_index(void) {
  struct counter **old = index_table;
  size_t old_size = index_mask + 1;
  index_mask = old_size * 2 - 1;
  index_table = xcalloc(index_mask + 1, sizeof *index_table);
  for (size_t i = 0; i < old_size; i++)
    if (old[i]) {
      size_t s = slot_of(old[i]->address);
      while (index_table[s])
        s = (s + 1) & index_mask;
      index_table[s] = old[i];
    }
  free(old);
}

static struct counter *counter_for(uint64_t address) {
  size_t s = slot_of(address);
  for (; index_table[s]; s = (s + 1) & index_mask)
    if (index_table[s]->address == address)
      return index_table[s];
  if (n_used % BLOCK == 0) {
    blocks = realloc(blocks, (n_blocks + 1) * sizeof *blocks);
    if (!blocks) {
      fprintf(stderr, "count-plugin: out of memory\n");
      abort();
    }
    blocks[n_blocks++] = xcalloc(BLOCK, sizeof **blocks);
  }
  struct counter *c = &blocks[n_used / BLOCK][n_used % BLOCK];
  n_used++;
  c->address = address;
  index_table[s] = c;
  if (2 * n_used > index_mask)
    grow_index();
  return c;
}

static void on_tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb) {
  (void)id;
  size_t n = qemu_plugin_tb_n_insns(tb);
  for (size_t i = 0; i < n; i++) {
    struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
    struct counter *c = counter_for(qemu_plugin_insn_vaddr(insn));
    qemu_plugin_register_vcpu_insn_exec_inline(
        insn, QEMU_PLUGIN_INLINE_ADD_U64, &c->count, 1);
  }
}

static int by_address(const void *x, const void *y) {
  const struct counter *a = *(struct counter *const *)x;
  const struct counter *b = *(struct counter *const *)y;
  return a->address < b->address ? -1 : a->address > b->address;
}

static void write_counts(qemu_plugin_id_t id, void *userdata) {
  (void)id;
  (void)userdata;
  FILE *f = open_result(out_path, owner_pid);
  if (!f)
    return;
  struct counter **sorted = xcalloc(n_used ? n_used : 1, sizeof *sorted);
  for (size_t i = 0; i < n_used; i++)
    sorted[i] = &blocks[i / BLOCK][i % BLOCK];
  qsort(sorted, n_used, sizeof *sorted, by_address);
  fprintf(f, "# insn-counts 1\n");
  fprintf(f, "# start_code 0x%llx\n# end_code 0x%llx\n# entry 0x%llx\n",
          (unsigned long long)qemu_plugin_start_code(),
          (unsigned long long)qemu_plugin_end_code(),
          (unsigned long long)qemu_plugin_entry_code());
  for (size_t i = 0; i < n_used; i++)
    if (sorted[i]->count)
      fprintf(f, "%llx %llu\n", (unsigned long long)sorted[i]->address,
              (unsigned long long)sorted[i]->count);
  free(sorted);
  close_result(f, out_path);
}

EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
                               int argc, char **argv) {
  if (info->system_emulation) {
    fprintf(stderr, "count-plugin: user-mode emulation only\n");
    return -1;
  }
  for (int i = 0; i < argc; i++) {
    if (strncmp(argv[i], "out=", 4) == 0) {
      out_path = argv[i] + 4;
    } else {
      fprintf(stderr, "count-plugin: unknown argument '%s' (use out=FILE)\n",
              argv[i]);
      return -1;
    }
  }
  if (!out_path || !*out_path) {
    fprintf(stderr, "count-plugin: missing argument out=FILE\n");
    return -1;
  }
  owner_pid = getpid();
  index_mask = (1 << 16) - 1;
  index_table = xcalloc(index_mask + 1, sizeof *index_table);
  qemu_plugin_register_vcpu_tb_trans_cb(id, on_tb_trans);
  qemu_plugin_register_atexit_cb(id, write_counts, NULL);
  return 0;
}
