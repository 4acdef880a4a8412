//===- SectionStreamer.h - stream a map section into a style ----*- C++ -*-===//
//
// bbmap-dump's map dump of one section, shared with the fuzz targets: checks
// the section, then streams its records into an output style, runs of
// records on several threads when the OrderedOutput has them.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_DUMP_SECTIONSTREAMER_H
#define BBMAP_DUMP_SECTIONSTREAMER_H

#include "MapPrinter.h"
#include "bbmap/Object/ELFMapReader.h"
#include "bbmap/Support/Diagnostics.h"
#include "bbmap/Support/OrderedOutput.h"
#include "llvm/ADT/StringRef.h"

namespace bbmap {

struct StreamOptions {
  bool Demangle = false;
  /// With several threads, the section is cut into runs of records of about
  /// this many bytes, each decoded and printed by one task.
  uint64_t SpanBytes = 16384;
};

/// Streams one map section into \p Printer, which writes to \p Out.stream().
/// llvm-readobj prints a section with a malformed record as an empty list,
/// so a first pass checks the whole section (and, with several threads,
/// finds where its runs of records start) before the second prints it; no
/// decoded record is kept. Diagnostics go through \p Out, in order.
void streamSection(const ELFMapReader &Reader, const MapSectionInfo &Info,
                   llvm::StringRef File, const StreamOptions &Opts,
                   MapPrinter &Printer, OrderedOutput &Out, Diagnostics &Diag);

} // namespace bbmap

#endif // BBMAP_DUMP_SECTIONSTREAMER_H
