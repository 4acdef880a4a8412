//===- FrameRanges.cpp - the code each FDE of .eh_frame covers ------------===//
//
// LLVM's DWARFDebugFrame parses .eh_frame; the FDEs are kept sorted by
// start with one per start. The search table of .eh_frame_hdr is read as
// linkers write it: version 1, then 4-byte entries relative to the section
// (DW_EH_PE_datarel | DW_EH_PE_sdata4).
//
//===----------------------------------------------------------------------===//

#include "bbmap/Object/FrameRanges.h"
#include "bbmap/Support/AnyKeyMap.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/DebugInfo/DWARF/DWARFDataExtractor.h"
#include "llvm/DebugInfo/DWARF/DWARFDebugFrame.h"
#include "llvm/Support/DataExtractor.h"

using namespace llvm;
using namespace llvm::object;

namespace bbmap {

namespace {

/// The section named \p Name, if \p Obj has one.
std::optional<SectionRef> sectionNamed(const ELFObjectFileBase &Obj,
                                       StringRef Name) {
  for (const SectionRef &S : Obj.sections()) {
    Expected<StringRef> N = S.getName();
    if (N && *N == Name)
      return S;
    // A name that cannot be read is not the one looked for; it is among
    // the warnings of the file's ELFMapReader.
    consumeError(N.takeError());
  }
  return std::nullopt;
}

/// Calls \p Each with every FDE of \p Obj's .eh_frame and the section's
/// address; a malformed section gives the FDEs before the damage.
void forEachFDE(const ELFObjectFileBase &Obj, WarningList &Warnings,
                function_ref<void(const dwarf::FDE &, uint64_t)> Each) {
  std::optional<SectionRef> S = sectionNamed(Obj, ".eh_frame");
  if (!S)
    return;
  Expected<StringRef> Contents = S->getContents();
  if (!Contents)
    return Warnings.add(".eh_frame", "unable to read .eh_frame",
                        Contents.takeError());
  DWARFDataExtractor Data(*Contents, Obj.isLittleEndian(),
                          Obj.getBytesInAddress());
  DWARFDebugFrame Frame(Obj.getArch(), /*IsEH=*/true, S->getAddress());
  if (Error E = Frame.parse(Data))
    Warnings.add(".eh_frame",
                 "unable to parse .eh_frame (the FDEs before the damage are "
                 "read)",
                 std::move(E));
  for (const dwarf::FrameEntry &Entry : Frame.entries())
    if (const auto *F = dyn_cast<dwarf::FDE>(&Entry))
      Each(*F, S->getAddress());
}

} // namespace

std::vector<FrameRange> frameRanges(const ELFObjectFileBase &Obj,
                                    WarningList &Warnings) {
  std::vector<FrameRange> Ranges;
  forEachFDE(Obj, Warnings, [&](const dwarf::FDE &F, uint64_t) {
    Ranges.push_back(
        {F.getInitialLocation(), F.getAddressRange(), F.getLSDAAddress()});
  });
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

Expected<HiddenFrames> hiddenFrames(const ELFObjectFileBase &Obj,
                                    WarningList &Warnings) {
  std::optional<SectionRef> Header = sectionNamed(Obj, ".eh_frame_hdr");
  if (!Header)
    return HiddenFrames();
  Expected<StringRef> Contents = Header->getContents();
  if (!Contents)
    return Contents.takeError();
  auto Malformed = [](uint64_t Offset, const Twine &What) {
    return createStringError(inconvertibleErrorCode(),
                             "'.eh_frame_hdr' at offset 0x" +
                                 utohexstr(Offset) + ": " + What);
  };
  // version, eh_frame_ptr_enc, fde_count_enc, table_enc, eh_frame_ptr
  // (sdata4 or udata4), fde_count (udata4), the table.
  DataExtractor Data(*Contents, Obj.isLittleEndian(), 4);
  if (Data.size() < 12)
    return Malformed(0, "truncated header");
  uint64_t Offset = 0;
  uint8_t Version = Data.getU8(&Offset);
  uint8_t PtrEncoding = Data.getU8(&Offset) & 0x0f;
  uint8_t CountEncoding = Data.getU8(&Offset);
  uint8_t TableEncoding = Data.getU8(&Offset);
  if (Version != 1)
    return Malformed(0, "version " + Twine(Version) + ", not 1");
  if (CountEncoding != dwarf::DW_EH_PE_udata4 ||
      TableEncoding != (dwarf::DW_EH_PE_datarel | dwarf::DW_EH_PE_sdata4) ||
      (PtrEncoding != dwarf::DW_EH_PE_sdata4 &&
       PtrEncoding != dwarf::DW_EH_PE_udata4))
    return HiddenFrames();
  Offset = 8;
  uint64_t Count = Data.getU32(&Offset);
  if (Count > (Data.size() - 12) / 8)
    return Malformed(8, "a table of " + Twine(Count) + " entries in " +
                            Twine(Data.size()) + " bytes");
  // The FDEs by address in .eh_frame, and the starts that some FDE
  // covering code has: addresses from the file, any value.
  AnyKeyMap<uint64_t, uint64_t> RangeAt;
  AnyKeySet<uint64_t> CodeStarts;
  forEachFDE(Obj, Warnings, [&](const dwarf::FDE &F, uint64_t SectionAddress) {
    RangeAt[SectionAddress + F.getOffset()] = F.getAddressRange();
    if (F.getAddressRange())
      CodeStarts.insert(F.getInitialLocation());
  });
  HiddenFrames Hidden;
  uint64_t Base = Header->getAddress();
  for (uint64_t I = 0; I < Count; ++I) {
    uint64_t Start = Base + int32_t(Data.getU32(&Offset));
    uint64_t FDE = Base + int32_t(Data.getU32(&Offset));
    auto Range = RangeAt.find(FDE);
    if (Range == RangeAt.end() || Range->second || !CodeStarts.contains(Start))
      continue;
    if (!Hidden.FDEs++ || Start < Hidden.First)
      Hidden.First = Start;
  }
  return Hidden;
}

} // namespace bbmap
