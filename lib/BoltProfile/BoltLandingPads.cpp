//===- BoltLandingPads.cpp - a function's landing pads from its LSDA ------===//
//
// The LSDA's header (landing-pad base, type-table offset) and its call-site
// table, read with DWARFDataExtractor's pointer encodings; the action and
// type tables, which hold no code addresses, are not read.
//
//===----------------------------------------------------------------------===//

#include "bbmap/BoltProfile/BoltLandingPads.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/BinaryFormat/Dwarf.h"
#include "llvm/DebugInfo/DWARF/DWARFDataExtractor.h"

using namespace llvm;
using namespace llvm::object;

namespace bbmap {

namespace {

/// The section holding \p Address, and its address.
Expected<std::pair<StringRef, uint64_t>>
sectionHolding(const ELFObjectFileBase &Obj, uint64_t Address) {
  for (const SectionRef &S : Obj.sections()) {
    if (S.isVirtual() || Address < S.getAddress() ||
        Address - S.getAddress() >= S.getSize())
      continue;
    Expected<StringRef> Contents = S.getContents();
    if (!Contents)
      return Contents.takeError();
    return std::make_pair(*Contents, S.getAddress());
  }
  return createStringError(inconvertibleErrorCode(),
                           "LSDA at 0x" + Twine::utohexstr(Address) +
                               " is in no section");
}

/// Reads an LSDA, failing at the first field that does not decode.
class LSDAReader {
public:
  explicit LSDAReader(const LSDALocation &L)
      : Data(L.Section, L.LittleEndian, L.AddressSize),
        SectionAddress(L.SectionAddress),
        Offset(L.LSDAAddress - L.SectionAddress), LSDAAddress(L.LSDAAddress) {}

  uint64_t offset() const { return Offset; }
  uint8_t byte() {
    return read([&] { return uint64_t(Data.getU8(&Offset)); });
  }
  uint64_t uleb() {
    return read([&] { return Data.getULEB128(&Offset); });
  }
  /// A pointer in \p Encoding (DW_EH_PE_*).
  uint64_t pointer(uint8_t Encoding) {
    return read([&] {
      uint64_t Address = SectionAddress + Offset;
      std::optional<uint64_t> P =
          Data.getEncodedPointer(&Offset, Encoding, Address);
      return P.value_or(0);
    });
  }
  Error takeError() {
    if (!Failed)
      return Error::success();
    return createStringError(inconvertibleErrorCode(),
                             "LSDA at 0x" + Twine::utohexstr(LSDAAddress) +
                                 ": truncated or unsupported encoding at 0x" +
                                 Twine::utohexstr(SectionAddress + Offset));
  }
  bool failed() const { return Failed; }

private:
  /// Runs \p Get unless an earlier read failed; a read that does not move
  /// on (end of the section, unknown encoding) fails.
  template <class F> uint64_t read(F Get) {
    if (Failed)
      return 0;
    uint64_t Before = Offset;
    uint64_t Value = Get();
    Failed = Offset == Before || Offset > Data.getData().size();
    return Failed ? 0 : Value;
  }

  DWARFDataExtractor Data;
  uint64_t SectionAddress;
  uint64_t Offset;
  uint64_t LSDAAddress;
  bool Failed = false;
};

} // namespace

Expected<std::vector<uint64_t>> readLandingPads(const ELFObjectFileBase &Obj,
                                                const BoltFunction &F) {
  if (!F.LSDAAddress)
    return std::vector<uint64_t>();
  Expected<std::pair<StringRef, uint64_t>> Section =
      sectionHolding(Obj, *F.LSDAAddress);
  if (!Section)
    return Section.takeError();
  return parseLandingPads({Section->first, Section->second, *F.LSDAAddress,
                           F.Address, F.Size, Obj.isLittleEndian(),
                           Obj.getBytesInAddress()});
}

Expected<std::vector<uint64_t>> parseLandingPads(const LSDALocation &L) {
  std::vector<uint64_t> Pads;
  if (L.LSDAAddress < L.SectionAddress ||
      L.LSDAAddress - L.SectionAddress >= L.Section.size())
    return createStringError(inconvertibleErrorCode(),
                             "LSDA at 0x" + Twine::utohexstr(L.LSDAAddress) +
                                 " is outside its section");
  LSDAReader R(L);
  uint64_t LPStart = L.FunctionAddress;
  uint8_t LPStartEncoding = R.byte();
  if (LPStartEncoding != dwarf::DW_EH_PE_omit)
    LPStart = R.pointer(LPStartEncoding);
  if (R.byte() != dwarf::DW_EH_PE_omit)
    R.uleb();
  uint8_t CallSiteEncoding = R.byte();
  uint64_t TableLength = R.uleb();
  uint64_t TableEnd = R.offset() + TableLength;
  while (!R.failed() && R.offset() < TableEnd) {
    R.pointer(CallSiteEncoding); // Start.
    R.pointer(CallSiteEncoding); // Length.
    uint64_t LandingPad = R.pointer(CallSiteEncoding);
    R.uleb(); // Action.
    if (R.failed() || !LandingPad)
      continue;
    LandingPad += LPStart;
    // parseLSDA() stops at a landing pad in another fragment.
    if (LandingPad < L.FunctionAddress ||
        LandingPad - L.FunctionAddress > L.FunctionSize)
      break;
    if (LandingPad - L.FunctionAddress < L.FunctionSize)
      Pads.push_back(LandingPad - L.FunctionAddress);
  }
  if (Error E = R.takeError())
    return std::move(E);
  llvm::sort(Pads);
  Pads.erase(std::unique(Pads.begin(), Pads.end()), Pads.end());
  return Pads;
}

} // namespace bbmap
