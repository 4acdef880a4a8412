//===- BoltLandingPads.h - landing pads from the LSDA -----------*- C++ -*-===//
//
// The landing pads BOLT finds for a function without asking the compiler:
// BinaryFunction::parseLSDA() walks the call-site table of the LSDA
// (.gcc_except_table) that the function's FDE names in its augmentation
// data, and each call site's landing pad starts a block. bbmap's view of a
// function takes them from here when no .llvm_bb_addr_map covers it.
//
// Threading: the functions keep no state: calls may run on several threads at
// once.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_BOLTPROFILE_BOLTLANDINGPADS_H
#define BBMAP_BOLTPROFILE_BOLTLANDINGPADS_H

#include "bbmap/BoltProfile/BoltFunctionTable.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <vector>

namespace bbmap {

/// The landing pads of \p F (offsets from its start, ascending, without
/// duplicates) from the call-site table of its LSDA in \p Obj; none when
/// its FDE names no LSDA. As in parseLSDA(), a landing pad outside the
/// function (a split fragment's) ends the walk, and one at the function's
/// end is left out. An LSDA outside every section, or one that does not
/// decode, is an error.
llvm::Expected<std::vector<uint64_t>>
readLandingPads(const llvm::object::ELFObjectFileBase &Obj,
                const BoltFunction &F);

/// An LSDA in the contents of its section, and the function it describes.
struct LSDALocation {
  llvm::StringRef Section;
  uint64_t SectionAddress = 0;
  uint64_t LSDAAddress = 0;
  uint64_t FunctionAddress = 0;
  uint64_t FunctionSize = 0;
  bool LittleEndian = true;
  unsigned AddressSize = 8;
};

/// readLandingPads on the bytes of \p L (its parser, which the fuzz target
/// fuzz-lsda drives).
llvm::Expected<std::vector<uint64_t>> parseLandingPads(const LSDALocation &L);

} // namespace bbmap

#endif // BBMAP_BOLTPROFILE_BOLTLANDINGPADS_H
