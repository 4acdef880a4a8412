//===- FrameRanges.h - the code each FDE of .eh_frame covers ----*- C++ -*-===//
//
// The functions of an ELF file as its .eh_frame describes them: one range
// per FDE, with the LSDA it names. Stripped shared libraries keep them, so
// they give function bounds where no symbol does (BOLT's function table,
// the placement's view of the C library). And the FDEs the search table
// of .eh_frame_hdr cannot reach: the unwinder takes the last entry at or
// below an address, which must cover it, and lld 22 and older keep one
// entry per address, the first FDE's in .eh_frame, even one that covers
// no bytes (an empty function or block section); an FDE of the same
// address that covers code is then out of reach, and an exception through
// that code terminates the program.
//
// Threading: the functions only read the object: calls may run on several
// threads at once (a WarningList may be shared).
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_OBJECT_FRAMERANGES_H
#define BBMAP_OBJECT_FRAMERANGES_H

#include "bbmap/Support/Warnings.h"
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
/// its entry); a malformed .eh_frame gives the FDEs before the damage, and
/// a warning in \p Warnings, as does one that cannot be read.
std::vector<FrameRange> frameRanges(const llvm::object::ELFObjectFileBase &Obj,
                                    WarningList &Warnings);

/// FDEs that the search table of an .eh_frame_hdr does not reach.
struct HiddenFrames {
  /// FDEs that cover code and whose address the table gives to an FDE of
  /// no range.
  unsigned FDEs = 0;
  /// The lowest such address.
  uint64_t First = 0;
};

/// The FDEs of \p Obj that its .eh_frame_hdr hides (none without one, or
/// with a table encoding other than the 4-byte data-relative one linkers
/// write). An error names the malformed section and the offset; a
/// malformed .eh_frame is a warning, as for frameRanges.
llvm::Expected<HiddenFrames>
hiddenFrames(const llvm::object::ELFObjectFileBase &Obj, WarningList &Warnings);

} // namespace bbmap

#endif // BBMAP_OBJECT_FRAMERANGES_H
