/* qemu-plugin-api.h - the part of QEMU's plugin C API (version 1, the
 * version QEMU 7.2 implements) that bbmap's TCG plugins use: trace-plugin.c
 * (exact control flow), count-plugin.c (per-instruction execution counts)
 * and bench/tools/icache-plugin.c (instruction-cache simulation). QEMU
 * ships no qemu-plugin.h in Debian, so the declarations are written out here; they are the stable C ABI of API version 1 (QEMU
 * 7.2 rejects a plugin declaring 2 with "supports only up to version 1").
 */
#ifndef BBMAP_QEMU_PLUGIN_API_H
#define BBMAP_QEMU_PLUGIN_API_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define EXPORT __attribute__((visibility("default")))
#define PLUGIN_API_VERSION 1

typedef uint64_t qemu_plugin_id_t;
struct qemu_plugin_tb;
struct qemu_plugin_insn;

typedef struct {
  const char *target_name;
  struct {
    int min;
    int cur;
  } version;
  bool system_emulation;
  union {
    struct {
      int smp_vcpus;
      int max_vcpus;
    } system;
  };
} qemu_info_t;

enum qemu_plugin_cb_flags { CB_NO_REGS, CB_R_REGS, CB_RW_REGS };

typedef void (*tb_trans_cb_t)(qemu_plugin_id_t id, struct qemu_plugin_tb *tb);
typedef void (*vcpu_udata_cb_t)(unsigned int vcpu_index, void *userdata);
typedef void (*udata_cb_t)(qemu_plugin_id_t id, void *userdata);

extern void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id,
                                                  tb_trans_cb_t cb);
extern void qemu_plugin_register_vcpu_tb_exec_cb(struct qemu_plugin_tb *tb,
                                                 vcpu_udata_cb_t cb,
                                                 enum qemu_plugin_cb_flags f,
                                                 void *userdata);
enum qemu_plugin_op { QEMU_PLUGIN_INLINE_ADD_U64 };
extern void qemu_plugin_register_vcpu_insn_exec_inline(
    struct qemu_plugin_insn *insn, enum qemu_plugin_op op, void *ptr,
    uint64_t imm);
extern void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, udata_cb_t cb,
                                           void *userdata);
extern size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
extern uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *tb);
extern struct qemu_plugin_insn *
qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb, size_t idx);
extern const void *qemu_plugin_insn_data(const struct qemu_plugin_insn *insn);
extern size_t qemu_plugin_insn_size(const struct qemu_plugin_insn *insn);
extern uint64_t qemu_plugin_insn_vaddr(const struct qemu_plugin_insn *insn);
extern uint64_t qemu_plugin_start_code(void);
extern uint64_t qemu_plugin_end_code(void);
extern uint64_t qemu_plugin_entry_code(void);

#endif /* BBMAP_QEMU_PLUGIN_API_H */
