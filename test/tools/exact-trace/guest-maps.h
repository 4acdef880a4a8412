/* guest-maps.h - the guest's file mappings, written by bbmap's QEMU plugins
 * (trace-plugin.c, bench/tools/icache-plugin.c) beside their results, so that
 * a consumer finds where each object (a PIE, a shared library) was loaded.
 *
 * User-mode QEMU on a 64-bit host of the same kind maps the guest 1:1, so
 * the process's own /proc/self/maps holds the guest's mappings at guest
 * addresses (beside QEMU's own, which no guest code runs in). Each mapping
 * of a file is one line
 *
 *   # map LO-HI OFFSET PATH
 *
 * (hex addresses and file offset as /proc/self/maps prints them).
 */
#ifndef BBMAP_GUEST_MAPS_H
#define BBMAP_GUEST_MAPS_H

#include <stdio.h>

static void write_guest_maps(FILE *f) {
  FILE *m = fopen("/proc/self/maps", "r");
  if (!m)
    return;
  char buf[4096];
  while (fgets(buf, sizeof buf, m)) {
    char range[64], perms[8], off[32], dev[16], path[3072];
    unsigned long inode;
    if (sscanf(buf, "%63s %7s %31s %15s %lu %3071s", range, perms, off, dev,
               &inode, path) == 6 &&
        path[0] == '/')
      fprintf(f, "# map %s %s %s\n", range, off, path);
  }
  fclose(m);
}

#endif
