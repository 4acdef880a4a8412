/* plugin-output.h - how bbmap's QEMU plugins (trace-plugin.c,
 * count-plugin.c, bench/tools/icache-plugin.c) write their result at exit:
 * only the process that loaded the plugin writes it (a guest that forks
 * runs the exit callback in the child too, which must not overwrite the
 * file), and a file that cannot be opened or written is reported on stderr.
 */
#ifndef BBMAP_PLUGIN_OUTPUT_H
#define BBMAP_PLUGIN_OUTPUT_H

#include <stdio.h>
#include <sys/types.h>
#include <unistd.h>

/* PATH opened for writing in the process OWNER, or NULL (not the owner, or
 * the error printed). */
static FILE *open_result(const char *path, pid_t owner) {
  if (getpid() != owner)
    return NULL;
  FILE *f = fopen(path, "w");
  if (!f)
    perror(path);
  return f;
}

/* Closes F, the result opened at PATH, reporting a failed write. */
static void close_result(FILE *f, const char *path) {
  if (fclose(f) != 0)
    perror(path);
}

#endif
