/* A qemu-user TCG plugin (plugin API version 1, QEMU 7.2 and later) that counts the guest
 * instructions a program executes and prints "insns: N" on stderr at exit; tools/arm_ipb.sh builds
 * and loads it. The few API calls it makes are declared here, so no QEMU source tree is needed. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef uint64_t plugin_id;
struct qemu_info_t;
struct qemu_plugin_tb;
enum plugin_op { plugin_inline_add_u64 };
typedef void (*on_tb_translate)(plugin_id, struct qemu_plugin_tb*);
typedef void (*on_exit_cb)(plugin_id, void*);
void qemu_plugin_register_vcpu_tb_trans_cb(plugin_id, on_tb_translate);
void qemu_plugin_register_vcpu_tb_exec_inline(struct qemu_plugin_tb*, enum plugin_op, void*, uint64_t);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb*);
void qemu_plugin_register_atexit_cb(plugin_id, on_exit_cb, void*);

__attribute__((visibility("default"))) int qemu_plugin_version = 1;

static uint64_t executed;

/* Each translated block adds its instruction count to `executed` every time it runs. */
static void translated(plugin_id id, struct qemu_plugin_tb* tb) {
  (void)id;
  qemu_plugin_register_vcpu_tb_exec_inline(tb, plugin_inline_add_u64, &executed, qemu_plugin_tb_n_insns(tb));
}

static void at_exit(plugin_id id, void* data) {
  (void)id;
  (void)data;
  fprintf(stderr, "insns: %llu\n", (unsigned long long)executed);
}

__attribute__((visibility("default"))) int qemu_plugin_install(plugin_id id, const struct qemu_info_t* info, int argc,
                                                               char** argv) {
  (void)info;
  (void)argc;
  (void)argv;
  qemu_plugin_register_vcpu_tb_trans_cb(id, translated);
  qemu_plugin_register_atexit_cb(id, at_exit, NULL);
  return 0;
}
