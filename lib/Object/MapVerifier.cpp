//===- MapVerifier.cpp - structural checks of decoded maps ----------------===//
//
// The checks of bbmap-dump --verify and its two report formats. Extents:
// range 0 of a record is checked against the largest STT_FUNC symbol at
// the function address; every other range against the largest symbol
// named `<function>.<suffix>` at the range's base address, <function> being
// any STT_FUNC symbol at the function address (clang 19 and 22 emit
// STT_NOTYPE symbols `foo.__part.N` for basic-block sections, `foo.cold` for
// split functions and `foo.eh` for exception-handling parts). In
// relocatable objects symbols are matched in the section the address
// field's relocation refers to.
//
//===----------------------------------------------------------------------===//

#include "bbmap/Object/MapVerifier.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/Demangle/Demangle.h"

using namespace llvm;

namespace bbmap {

namespace {

bool isExecutable(const SectionFacts &S) {
  return S.Flags & ELF::SHF_EXECINSTR;
}

} // namespace

uint64_t VerifyReport::count(Severity Sev) const {
  return llvm::count_if(Findings,
                        [&](const Finding &F) { return F.Sev == Sev; });
}

void VerifySummary::add(const VerifyReport &R) {
  ++Files;
  Functions += R.Functions;
  Blocks += R.Blocks;
  Errors += R.errors();
  Warnings += R.count(Severity::Warning);
  Uncovered += R.Uncovered.size();
}

MapVerifier::MapVerifier(std::string File, FileFacts F) : Facts(std::move(F)) {
  Report.File = std::move(File);
  for (size_t I = 0; I < Facts.Symbols.size(); ++I) {
    const SymbolFacts &S = Facts.Symbols[I];
    SymbolsAt.emplace(keyOf(S.Section, S.Value), I);
  }
}

MapVerifier::Key MapVerifier::keyOf(unsigned Section, uint64_t Value) const {
  return {Facts.Relocatable ? Section : 0, Value};
}

std::string MapVerifier::describeSection(unsigned Index) const {
  std::string Name =
      Index < Facts.Sections.size() ? Facts.Sections[Index].Name : "<?>";
  return ("[" + Twine(Index) + "] " + Name).str();
}

void MapVerifier::report(Severity Sev, const DecodedSection &Sec,
                         std::optional<uint64_t> RecordOffset,
                         StringRef Function, const Twine &Message) {
  Report.Findings.push_back({Sev, Sec.Info.Index, Sec.Info.Name, RecordOffset,
                             Function.str(), Message.str()});
}

void MapVerifier::checkSection(const DecodedSection &Sec,
                               const RelocationTargets &Relocs) {
  checkSectionHeader(Sec);
  checkRecords(Sec, Relocs);
}

void MapVerifier::checkRecords(const DecodedSection &Sec,
                               const RelocationTargets &Relocs) {
  for (size_t I = 0; I < Sec.Functions.size(); ++I)
    checkFunction({Sec, Sec.Functions[I], Sec.Names[I]}, Relocs);
}

void MapVerifier::checkLinkOrder(const DecodedSection &Sec) {
  const SectionFacts &Map = Facts.Sections[Sec.Info.Index];
  if (!(Map.Flags & ELF::SHF_LINK_ORDER))
    report(Severity::Warning, Sec, std::nullopt, "",
           "section has no SHF_LINK_ORDER flag");
  if (Map.Link == 0 || Map.Link >= Facts.Sections.size())
    return report(Severity::Error, Sec, std::nullopt, "",
                  "sh_link " + Twine(Map.Link) + " does not name a section");
  if (!isExecutable(Facts.Sections[Map.Link]))
    report(Severity::Error, Sec, std::nullopt, "",
           "sh_link target " + describeSection(Map.Link) +
               " is not executable (no SHF_EXECINSTR)");
}

MapVerifier::Key MapVerifier::rangeKey(const BlockRange &Range,
                                       const DecodedSection &Sec,
                                       const RelocationTargets &Relocs) const {
  // In a relocatable object the field holds the addend; the place is the
  // relocation's symbol plus the addend.
  auto It = Relocs.find(Range.AddressFieldOffset);
  if (It == Relocs.end())
    return keyOf(Facts.Sections[Sec.Info.Index].Link, Range.BaseAddress);
  return keyOf(It->second.Section, It->second.SymbolValue + Range.BaseAddress);
}

void MapVerifier::checkFunction(const Context &C,
                                const RelocationTargets &Relocs) {
  ++Report.Functions;
  for (const BlockRange &Range : C.F.Ranges)
    Report.Blocks += Range.Blocks.size();
  Key Entry = rangeKey(C.F.Ranges.front(), C.Sec, Relocs);
  // The dump names a relocatable object's functions by the addend alone, as
  // llvm-readobj does; findings name the symbol at the relocated place.
  const SymbolFacts *Symbol = entrySymbol(Entry);
  Context Named{C.Sec, C.F,
                Facts.Relocatable && Symbol ? StringRef(Symbol->Name) : C.Name};
  if (Facts.Relocatable)
    checkLinkedSection(Named, Entry.first);
  if (!checkDuplicate(Named, Entry))
    return;
  for (size_t I = 0; I < C.F.Ranges.size(); ++I)
    checkRange(Named, I, rangeKey(C.F.Ranges[I], C.Sec, Relocs), Entry);
}

void MapVerifier::checkLinkedSection(const Context &C, unsigned EntrySection) {
  uint32_t Link = Facts.Sections[C.Sec.Info.Index].Link;
  if (Link == 0 || Link >= Facts.Sections.size() || EntrySection == Link)
    return;
  report(Severity::Error, C,
         "function address is relocated against section " +
             describeSection(EntrySection) + ", not the sh_link target " +
             describeSection(Link));
}

bool MapVerifier::checkDuplicate(const Context &C, Key Entry) {
  auto [It, New] = Covered.try_emplace(
      Entry, RecordPlace{C.Sec.Info.Index, C.F.SectionOffset});
  if (New)
    return true;
  report(Severity::Error, C,
         "duplicate record for function address " + hex(Entry.second) +
             " (first record: section " +
             describeSection(It->second.SectionIndex) + " offset " +
             hex(It->second.Offset) + ")");
  return false;
}

const SymbolFacts *MapVerifier::entrySymbol(Key Entry) const {
  // Empty functions and aliases share the address: take the largest.
  const SymbolFacts *Best = nullptr;
  auto [Begin, End] = SymbolsAt.equal_range(Entry);
  for (auto It = Begin; It != End; ++It) {
    const SymbolFacts &S = Facts.Symbols[It->second];
    if (S.IsFunction && (!Best || S.Size > Best->Size))
      Best = &S;
  }
  return Best;
}

const SymbolFacts *MapVerifier::partSymbol(Key Base, Key Entry) const {
  auto [EntryBegin, EntryEnd] = SymbolsAt.equal_range(Entry);
  auto IsPart = [&](StringRef Part) {
    for (auto It = EntryBegin; It != EntryEnd; ++It) {
      StringRef Function = Facts.Symbols[It->second].Name;
      if (Facts.Symbols[It->second].IsFunction &&
          Part.size() > Function.size() + 1 && Part.starts_with(Function) &&
          Part[Function.size()] == '.')
        return true;
    }
    return false;
  };
  // An empty part shares its address with the next part: take the largest.
  const SymbolFacts *Best = nullptr;
  auto [Begin, End] = SymbolsAt.equal_range(Base);
  for (auto It = Begin; It != End; ++It) {
    const SymbolFacts &S = Facts.Symbols[It->second];
    if (IsPart(S.Name) && (!Best || S.Size > Best->Size))
      Best = &S;
  }
  return Best;
}

void MapVerifier::checkRange(const Context &C, size_t RangeIndex, Key Base,
                             Key Entry) {
  const SymbolFacts *Extent =
      RangeIndex == 0 ? entrySymbol(Entry) : partSymbol(Base, Entry);
  std::string Where =
      "range " + std::to_string(RangeIndex) + " at " + hex(Base.second) +
      (Facts.Relocatable ? " in section " + describeSection(Base.first) : "");
  if (!Extent && RangeIndex == 0)
    report(Severity::Warning, C,
           Where + ": no STT_FUNC symbol there; extent not checked");
  else if (!Extent)
    report(Severity::Warning, C,
           Where + ": no symbol " + (C.Name.empty() ? "<?>" : C.Name) +
               ".* there; extent not checked");
  else if (RangeIndex == 0 && Extent->Size == 0) {
    // Part symbols of empty parts have size 0; a function symbol without a
    // size (e.g. assembler without .size) says nothing.
    report(Severity::Warning, C,
           Where + ": symbol " + Extent->Name +
               " has size 0; extent not checked");
    Extent = nullptr;
  }
  checkBlocks(C, RangeIndex, Extent);
}

void MapVerifier::checkBlocks(const Context &C, size_t RangeIndex,
                              const SymbolFacts *Extent) {
  const BlockRange &Range = C.F.Ranges[RangeIndex];
  const BlockEntry *Prev = nullptr;
  for (const BlockEntry &B : Range.Blocks) {
    // Offsets are relative to the range base, which is the symbol's value.
    uint64_t Begin = B.Offset, End = Begin + B.Size;
    // Built only for a finding: most blocks have none.
    auto What = [&] {
      return "range " + std::to_string(RangeIndex) + " block ID " +
             std::to_string(B.ID);
    };
    if (Prev && B.Offset < Prev->Offset)
      report(Severity::Error, C,
             What() + ": offset " + hex(Begin) +
                 " is before the previous block" + " (ID " + Twine(Prev->ID) +
                 " at " + hex(Prev->Offset) + ")");
    else if (Prev && Begin < uint64_t(Prev->Offset) + Prev->Size)
      report(Severity::Error, C,
             What() + ": [" + hex(Begin) + ", " + hex(End) +
                 ") overlaps the previous block (ID " + Twine(Prev->ID) + " [" +
                 hex(Prev->Offset) + ", " +
                 hex(uint64_t(Prev->Offset) + Prev->Size) + "))");
    if (Extent && End > Extent->Size)
      report(Severity::Error, C,
             What() + ": [" + hex(Begin) + ", " + hex(End) +
                 ") ends past the end of symbol " + Extent->Name + " (size " +
                 hex(Extent->Size) + ")");
    for (uint32_t Callsite : B.CallsiteEndOffsets)
      if (Callsite > B.Size) {
        report(Severity::Error, C,
               What() + ": callsite end offset " + hex(Callsite) +
                   " is past the block size " + hex(B.Size));
        break;
      }
    Prev = &B;
  }
}

VerifyReport MapVerifier::finish(function_ref<bool(StringRef)> Selected) {
  for (const SymbolFacts &S : Facts.Symbols) {
    if (!S.IsFunction || S.Size == 0 || S.Section >= Facts.Sections.size() ||
        !isExecutable(Facts.Sections[S.Section]) ||
        Covered.count(keyOf(S.Section, S.Value)) || !Selected(S.Name))
      continue;
    Report.Uncovered.push_back(
        {S.Name, S.Value, S.Size, S.Section, Facts.Sections[S.Section].Name});
  }
  return std::move(Report);
}

} // namespace bbmap
