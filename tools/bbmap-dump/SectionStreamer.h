//===- SectionStreamer.h - stream a map section into a style ----*- C++ -*-===//
//
// bbmap-dump's map dump of one section, shared with the fuzz targets: checks
// the section, then streams its records into an output style.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_DUMP_SECTIONSTREAMER_H
#define BBMAP_DUMP_SECTIONSTREAMER_H

#include "MapPrinter.h"
#include "bbmap/Object/ELFMapReader.h"
#include "bbmap/Support/Diagnostics.h"
#include "llvm/ADT/StringRef.h"

namespace bbmap {

/// Streams one map section into \p Printer, demangling names if asked.
/// llvm-readobj prints a section with a malformed record as an empty list,
/// so a first pass checks the whole section before the second prints it; no
/// decoded record is kept.
void streamSection(const ELFMapReader &Reader, const MapSectionInfo &Info,
                   llvm::StringRef File, bool Demangle, MapPrinter &Printer,
                   Diagnostics &Diag);

} // namespace bbmap

#endif // BBMAP_DUMP_SECTIONSTREAMER_H
