/* icache-plugin.c - QEMU user-mode TCG plugin that simulates an instruction
 * cache on the guest's executed instructions and records, per cache line of
 * code, how often it was fetched and how often the fetch missed.
 *
 * Build:  cc -O2 -shared -fPIC -I test/tools/exact-trace \
 *            -o icache-plugin.so bench/tools/icache-plugin.c
 * Run:    qemu-x86_64 -plugin ./icache-plugin.so,out=FILE[,size=S,assoc=A] \
 *            [,line=L][,shift=LO-HI+DELTA][,only=LO-HI] ./program args
 *
 * The cache is set-associative with true LRU replacement, like
 * cachegrind's I1: S bytes, A ways, L-byte lines (default 32768, 8 and 64,
 * the benches' I1), the set of a line being its line number modulo the number
 * of sets. Every executed instruction fetches the lines its bytes cover, in
 * program order; a fetch of the line fetched just before always hits and
 * leaves the LRU order as it was, so each translated block (TB) is reduced
 * once, when QEMU translates it, to the list of lines its instructions
 * fetch with such repeats removed, and each execution of the TB replays
 * that list. An instruction that straddles two lines fetches both (as in
 * cachegrind, where it is one reference with a miss per missing line).
 *
 * shift=LO-HI+DELTA (hex LO and HI, decimal DELTA, may be negative) moves
 * the code at [LO, HI) by DELTA bytes for the simulation: the cache sees
 * the fetches as if that code had been linked DELTA bytes further on. Code
 * runs the same wherever it is placed, so this gives the misses of the same
 * layout at another position, e.g. relative to libraries that stay put,
 * without relinking. The output's LINE is the shifted line, its ADDR the
 * code's own address.
 *
 * shifts=LO-HI:D1:D2:... (hex LO < HI, decimal deltas) simulates, beside
 * the cache above, one more cache per delta, each seeing the code at
 * [LO, HI) moved by its delta: the misses of several placements of the same
 * code from one run. Their totals are written as "# placement D MISSES"
 * lines (per-line counters are kept for the main cache only).
 *
 * only=LO-HI (hex) simulates the fetches of the code at [LO, HI) alone, as
 * if no other code ran: the misses a part of the program causes itself,
 * without the code of libraries competing for the same sets.
 *
 * Output (text):
 *
 *   # icache-sim 1
 *   # cache SIZE ASSOC LINE
 *   # instructions N        (executed guest instructions; with only=,
 *                            those in the range)
 *   # fetches N             (line fetches after the reduction above)
 *   # misses N
 *   # map LO-HI OFFSET PATH (the guest's file mappings at exit, from
 *                            /proc/self/maps: user-mode QEMU on a 64-bit
 *                            host of the same kind maps the guest 1:1)
 *   LINE ADDR FETCHES MISSES
 *                           (hex line address and hex address of the first
 *                            instruction byte fetched from the line, then
 *                            decimal counts; a line that code of several
 *                            functions shares has a row for each place it is
 *                            entered at, so each fetch is charged to the
 *                            code that made it; ascending)
 *
 * vCPU 0 only (a multi-threaded guest's other threads are ignored and the
 * output says so with "# error: ..."); only the process that loaded the
 * plugin writes the file. A line's counters live in a table indexed at
 * translation time, so an execution costs one tag search per line.
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

static void *xmalloc(size_t n) {
  void *p = malloc(n);
  if (!p) {
    fprintf(stderr, "icache-plugin: out of memory\n");
    abort();
  }
  return p;
}

/* ---- Per-line counters, found by line number at translation time ------ */

struct line_stat {
  uint64_t line; /* line number (address / line size) */
  uint64_t addr; /* the first instruction byte fetched from it */
  uint64_t fetches, misses;
};

static struct line_stat *stats;
static size_t stats_used, stats_cap;
static uint32_t *slots; /* open addressing: index + 1 into stats, 0 empty */
static size_t slots_mask;

static size_t slot_of(uint64_t addr) {
  return (size_t)((addr * 0x9e3779b97f4a7c15ull) >> 20) & slots_mask;
}

static void slots_init(size_t capacity) {
  slots = calloc(capacity, sizeof *slots);
  if (!slots) {
    fprintf(stderr, "icache-plugin: out of memory\n");
    abort();
  }
  slots_mask = capacity - 1;
  for (size_t i = 0; i < stats_used; i++) {
    size_t s = slot_of(stats[i].addr);
    while (slots[s])
      s = (s + 1) & slots_mask;
    slots[s] = (uint32_t)(i + 1);
  }
}

/* The index in stats of the counters of LINE entered at ADDR, made on first
 * use. */
static uint32_t stat_index(uint64_t line, uint64_t addr) {
  size_t s = slot_of(addr);
  for (; slots[s]; s = (s + 1) & slots_mask)
    if (stats[slots[s] - 1].addr == addr)
      return slots[s] - 1;
  if (stats_used == stats_cap) {
    stats_cap *= 2;
    stats = realloc(stats, stats_cap * sizeof *stats);
    if (!stats) {
      fprintf(stderr, "icache-plugin: out of memory\n");
      abort();
    }
  }
  stats[stats_used] = (struct line_stat){line, addr, 0, 0};
  slots[s] = (uint32_t)++stats_used;
  if (stats_used * 2 > slots_mask + 1) {
    free(slots);
    slots_init((slots_mask + 1) * 2);
  }
  return (uint32_t)(stats_used - 1);
}

/* ---- The cache ------------------------------------------------------- */

static unsigned line_bits, assoc;
static uint64_t set_mask;
static uint64_t *tags; /* per set, ASSOC line numbers, most recent first */
static uint64_t instructions, fetches, misses;

/* The caches of shifts=: MAX_PLACEMENTS at most, each with its own tags. */
#define MAX_PLACEMENTS 64
static size_t n_placements;
static int64_t placement_delta[MAX_PLACEMENTS];
static uint64_t *placement_tags[MAX_PLACEMENTS];
static uint64_t placement_misses[MAX_PLACEMENTS];
static uint64_t placements_lo, placements_hi;

static uint64_t *new_tags(void) {
  uint64_t *t = xmalloc((set_mask + 1) * assoc * sizeof *t);
  for (size_t i = 0; i < (set_mask + 1) * assoc; i++)
    t[i] = UINT64_MAX; /* no line */
  return t;
}

/* Fetches LINE into the cache of tags T; true on a miss. */
static bool fetch_in(uint64_t *t, uint64_t line) {
  uint64_t *set = t + (line & set_mask) * assoc;
  if (set[0] == line)
    return false;
  unsigned w = 1;
  while (w < assoc && set[w] != line)
    w++;
  bool miss = w == assoc;
  if (miss)
    w = assoc - 1; /* the least recently used way is replaced */
  memmove(set + 1, set, w * sizeof *set);
  set[0] = line;
  return miss;
}

static bool fetch(uint64_t line) { return fetch_in(tags, line); }

/* ---- Translation and execution --------------------------------------- */

struct tb_lines {
  uint64_t n_insns;
  size_t n;
  uint64_t *placed[MAX_PLACEMENTS]; /* each placement's lines, 0-ended */
  uint64_t line[];
  /* followed by n uint32_t indexes into stats */
};

static bool other_vcpu_seen;
static pid_t owner_pid;
static uint64_t shift_lo, shift_hi;
static int64_t shift_delta;
static uint64_t only_lo, only_hi = UINT64_MAX;
static const char *out_path;

static uint32_t *tb_stat_index(struct tb_lines *t) {
  return (uint32_t *)(t->line + t->n);
}

static void on_tb_exec(unsigned int vcpu_index, void *userdata) {
  struct tb_lines *t = userdata;
  if (vcpu_index != 0) {
    other_vcpu_seen = true;
    return;
  }
  uint32_t *idx = tb_stat_index(t);
  instructions += t->n_insns;
  fetches += t->n;
  for (size_t i = 0; i < t->n; i++) {
    struct line_stat *s = &stats[idx[i]];
    s->fetches++;
    if (fetch(t->line[i])) {
      s->misses++;
      misses++;
    }
  }
  for (size_t p = 0; p < n_placements; p++)
    for (const uint64_t *l = t->placed[p]; *l; l++)
      placement_misses[p] += fetch_in(placement_tags[p], *l);
}

/* The lines the N instructions of TB fetch with the code at
 * [placements_lo, placements_hi) moved by DELTA, repeats removed, 0-ended
 * (no line 0 is ever code). */
static uint64_t *placed_lines(struct qemu_plugin_tb *tb, size_t n,
                              int64_t delta) {
  uint64_t *lines = xmalloc((2 * n + 1) * sizeof *lines);
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
    uint64_t a = qemu_plugin_insn_vaddr(insn);
    if (a < only_lo || a >= only_hi)
      continue;
    if (a >= placements_lo && a < placements_hi)
      a += (uint64_t)delta;
    size_t size = qemu_plugin_insn_size(insn);
    uint64_t first = a >> line_bits, last = (a + (size ? size : 1) - 1) >> line_bits;
    for (uint64_t l = first; l <= last; l++)
      if (k == 0 || lines[k - 1] != l)
        lines[k++] = l;
  }
  lines[k] = 0;
  return lines;
}

static void on_tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb) {
  (void)id;
  size_t n = qemu_plugin_tb_n_insns(tb);
  if (n == 0)
    return;
  /* At most two lines per instruction. */
  struct tb_lines *t =
      xmalloc(sizeof *t + 2 * n * (sizeof(uint64_t) + sizeof(uint32_t)));
  uint64_t *lines = xmalloc(4 * n * sizeof *lines), *entered = lines + 2 * n;
  size_t k = 0, simulated = 0;
  for (size_t i = 0; i < n; i++) {
    struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
    uint64_t r = qemu_plugin_insn_vaddr(insn), a = r; /* real, simulated */
    if (r < only_lo || r >= only_hi)
      continue;
    simulated++;
    if (r >= shift_lo && r < shift_hi)
      a += (uint64_t)shift_delta;
    size_t size = qemu_plugin_insn_size(insn);
    uint64_t first = a >> line_bits, last = (a + (size ? size : 1) - 1) >> line_bits;
    for (uint64_t l = first; l <= last; l++)
      if (k == 0 || lines[k - 1] != l) {
        entered[k] = l == first ? r : (l << line_bits) - (a - r);
        lines[k++] = l;
      }
  }
  t->n_insns = simulated;
  t->n = k;
  memcpy(t->line, lines, k * sizeof *lines);
  uint32_t *idx = tb_stat_index(t);
  for (size_t i = 0; i < k; i++)
    idx[i] = stat_index(t->line[i], entered[i]);
  free(lines);
  for (size_t p = 0; p < n_placements; p++)
    t->placed[p] = placed_lines(tb, n, placement_delta[p]);
  /* Kept until exit: an old copy of a retranslated TB may still run. */
  qemu_plugin_register_vcpu_tb_exec_cb(tb, on_tb_exec, CB_NO_REGS, t);
}

static int compare_lines(const void *x, const void *y) {
  const struct line_stat *a = x, *b = y;
  return a->addr < b->addr ? -1 : a->addr > b->addr;
}

static void write_stats(qemu_plugin_id_t id, void *userdata) {
  (void)id;
  (void)userdata;
  FILE *f = open_result(out_path, owner_pid);
  if (!f)
    return;
  fprintf(f, "# icache-sim 1\n");
  if (other_vcpu_seen)
    fprintf(f, "# error: the guest ran more than one thread; only thread 0 "
               "was simulated\n");
  fprintf(f, "# cache %llu %u %u\n",
          (unsigned long long)((set_mask + 1) * assoc) << line_bits, assoc,
          1u << line_bits);
  fprintf(f, "# instructions %llu\n# fetches %llu\n# misses %llu\n",
          (unsigned long long)instructions, (unsigned long long)fetches,
          (unsigned long long)misses);
  for (size_t p = 0; p < n_placements; p++)
    fprintf(f, "# placement %lld %llu\n", (long long)placement_delta[p],
            (unsigned long long)placement_misses[p]);
  write_guest_maps(f);
  qsort(stats, stats_used, sizeof *stats, compare_lines);
  for (size_t i = 0; i < stats_used; i++)
    if (stats[i].fetches)
      fprintf(f, "%llx %llx %llu %llu\n",
              (unsigned long long)(stats[i].line << line_bits),
              (unsigned long long)stats[i].addr,
              (unsigned long long)stats[i].fetches,
              (unsigned long long)stats[i].misses);
  close_result(f, out_path);
}

/* Parses shifts='s LO-HI:D1:D2:... into the placement globals. */
static bool parse_placements(const char *arg) {
  unsigned long long lo, hi;
  int used;
  if (sscanf(arg, "%llx-%llx%n", &lo, &hi, &used) != 2 || lo >= hi)
    return false;
  placements_lo = lo, placements_hi = hi;
  for (arg += used; *arg == ':'; arg += used) {
    long long delta;
    if (n_placements == MAX_PLACEMENTS ||
        sscanf(arg + 1, "%lld%n", &delta, &used) != 1)
      return false;
    used++;
    placement_delta[n_placements++] = delta;
  }
  return *arg == 0 && n_placements > 0;
}

static bool power_of_two(unsigned long v) { return v && !(v & (v - 1)); }

/* Whether ARG is KEY followed by a decimal number, which goes to *V (0 if
 * it is not a number, which the caller rejects). */
static bool parse_count(const char *arg, const char *key, unsigned long *v) {
  size_t n = strlen(key);
  if (strncmp(arg, key, n) != 0)
    return false;
  char *end;
  *v = strtoul(arg + n, &end, 10);
  if (*end || end == arg + n)
    *v = 0;
  return true;
}

EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
                               int argc, char **argv) {
  unsigned long size = 32768, ways = 8, line = 64;
  if (info->system_emulation) {
    fprintf(stderr, "icache-plugin: user-mode emulation only\n");
    return -1;
  }
  for (int i = 0; i < argc; i++) {
    if (strncmp(argv[i], "out=", 4) == 0) {
      out_path = argv[i] + 4;
    } else if (parse_count(argv[i], "size=", &size) ||
               parse_count(argv[i], "assoc=", &ways) ||
               parse_count(argv[i], "line=", &line)) {
      continue;
    } else if (strncmp(argv[i], "shift=", 6) == 0) {
      unsigned long long lo, hi;
      long long delta;
      char tail;
      if (sscanf(argv[i] + 6, "%llx-%llx%lld%c", &lo, &hi, &delta, &tail) !=
              3 ||
          lo >= hi) {
        fprintf(stderr,
                "icache-plugin: bad '%s': want shift=LO-HI+DELTA (hex LO < "
                "HI, decimal DELTA)\n",
                argv[i]);
        return -1;
      }
      shift_lo = lo, shift_hi = hi, shift_delta = delta;
    } else if (strncmp(argv[i], "shifts=", 7) == 0) {
      if (!parse_placements(argv[i] + 7)) {
        fprintf(stderr,
                "icache-plugin: bad '%s': want shifts=LO-HI:D1:D2:... (hex "
                "LO < HI, up to %d decimal deltas)\n",
                argv[i], MAX_PLACEMENTS);
        return -1;
      }
    } else if (strncmp(argv[i], "only=", 5) == 0) {
      unsigned long long lo, hi;
      char tail;
      if (sscanf(argv[i] + 5, "%llx-%llx%c", &lo, &hi, &tail) != 2 ||
          lo >= hi) {
        fprintf(stderr,
                "icache-plugin: bad '%s': want only=LO-HI (hex LO < HI)\n",
                argv[i]);
        return -1;
      }
      only_lo = lo, only_hi = hi;
    } else {
      fprintf(stderr,
              "icache-plugin: unknown argument '%s' (use out=FILE, size=N, "
              "assoc=N, line=N, shift=LO-HI+DELTA, shifts=LO-HI:D1:..., "
              "only=LO-HI)\n",
              argv[i]);
      return -1;
    }
  }
  if (!size || !ways || !line || !power_of_two(line) || ways > 1024 ||
      size % (ways * line) || !power_of_two(size / (ways * line))) {
    fprintf(stderr, "icache-plugin: bad geometry size=%lu assoc=%lu line=%lu: "
                    "the line size and the number of sets (size / (assoc * "
                    "line)) must be powers of two, assoc at most 1024\n",
            size, ways, line);
    return -1;
  }
  if (!out_path || !*out_path) {
    fprintf(stderr, "icache-plugin: missing argument out=FILE\n");
    return -1;
  }
  line_bits = (unsigned)__builtin_ctzl(line);
  assoc = (unsigned)ways;
  set_mask = size / (ways * line) - 1;
  tags = new_tags();
  for (size_t p = 0; p < n_placements; p++)
    placement_tags[p] = new_tags();
  stats_cap = 1 << 16;
  stats = xmalloc(stats_cap * sizeof *stats);
  slots_init(1 << 17);
  owner_pid = getpid();
  qemu_plugin_register_vcpu_tb_trans_cb(id, on_tb_trans);
  qemu_plugin_register_atexit_cb(id, write_stats, NULL);
  return 0;
}
