//===- FrameRanges.cpp - the code each FDE of .eh_frame covers ------------===//
//
// LLVM's DWARFDebugFrame parses the section; the FDEs are kept sorted by
// start with one per start.
//
//===----------------------------------------------------------------------===//

#include "bbmap/Object/FrameRanges.h"
#include "llvm/DebugInfo/DWARF/DWARFDataExtractor.h"
#include "llvm/DebugInfo/DWARF/DWARFDebugFrame.h"

using namespace llvm;
using namespace llvm::object;

namespace bbmap {

std::vector<FrameRange> frameRanges(const ELFObjectFileBase &Obj) {
  std::vector<FrameRange> Ranges;
  for (const SectionRef &S : Obj.sections()) {
    Expected<StringRef> Name = S.getName();
    Expected<StringRef> Contents = S.getContents();
    if (Name && *Name == ".eh_frame" && Contents) {
      DWARFDataExtractor Data(*Contents, Obj.isLittleEndian(),
                              Obj.getBytesInAddress());
      DWARFDebugFrame Frame(Obj.getArch(), /*IsEH=*/true, S.getAddress());
      if (Error E = Frame.parse(Data))
        consumeError(std::move(E));
      for (const dwarf::FrameEntry &Entry : Frame.entries())
        if (const auto *F = dyn_cast<dwarf::FDE>(&Entry))
          Ranges.push_back({F->getInitialLocation(), F->getAddressRange(),
                            F->getLSDAAddress()});
    }
    consumeError(Name.takeError());
    consumeError(Contents.takeError());
  }
  llvm::stable_sort(Ranges, [](const FrameRange &A, const FrameRange &B) {
    return A.Start < B.Start;
  });
  Ranges.erase(std::unique(Ranges.begin(), Ranges.end(),
                           [](const FrameRange &A, const FrameRange &B) {
                             return A.Start == B.Start;
                           }),
               Ranges.end());
  return Ranges;
}

} // namespace bbmap
