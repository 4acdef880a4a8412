//===- FrameRanges.h - the code each FDE of .eh_frame covers ----*- C++ -*-===//
//
// The functions of an ELF file as its .eh_frame describes them: one range
// per FDE, with the LSDA it names. Stripped shared libraries keep them, so
// they give function bounds where no symbol does (BOLT's function table,
// the placement's view of the C library).
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_OBJECT_FRAMERANGES_H
#define BBMAP_OBJECT_FRAMERANGES_H

#include "llvm/Object/ELFObjectFile.h"
#include <cstdint>
#include <optional>
#include <vector>

namespace bbmap {

/// An FDE of .eh_frame: the code it covers (addresses) and the LSDA it
/// names.
struct FrameRange {
  uint64_t Start = 0;
  uint64_t Size = 0;
  std::optional<uint64_t> LSDAAddress;
};

/// The FDEs of \p Obj's .eh_frame, by start, the first one of a start (a
/// BOLTed binary has the old body's and that of the jump BOLT patched over
/// its entry); a malformed .eh_frame gives the FDEs before the damage.
std::vector<FrameRange> frameRanges(const llvm::object::ELFObjectFileBase &Obj);

} // namespace bbmap

#endif // BBMAP_OBJECT_FRAMERANGES_H
