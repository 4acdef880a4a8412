//===- InstrProfPrinter.cpp - instrumentation profile output --------------===//
//
// The text style reproduces `llvm-profdata show --all-functions` of each
// supported major byte for byte: the record filter (context-sensitive
// records only with --showcs, for IR-level profiles), the per-function
// lines, the value-site lists and their statistics, and the summary that
// InstrProfSummaryBuilder computes. The majors differ in a few places:
// LLVM 14 knows no pseudo counts and no vtable profiles; LLVM 22 adds the
// loop-entries flag to the instrumentation-level line and always prints the
// block total and the total count. The JSON style prints the whole model.
//
//===----------------------------------------------------------------------===//

#include "InstrProfPrinter.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"
#include <algorithm>
#include <cinttypes>

using namespace llvm;

namespace bbmap {

unsigned majorOf(InstrProfTextStyle S) {
  switch (S) {
  case InstrProfTextStyle::LLVM14:
    return 14;
  case InstrProfTextStyle::LLVM19:
    return 19;
  case InstrProfTextStyle::LLVM22:
    return 22;
  }
  llvm_unreachable("unknown style");
}

InstrProfTextStyle defaultTextStyle(const InstrProfHeader &First) {
  if (First.has(VariantLoopEntries))
    return InstrProfTextStyle::LLVM22;
  uint32_t V = First.version();
  bool Raw = First.Format == InstrProfFormat::Raw;
  if (V <= (Raw ? 8 : 7))
    return InstrProfTextStyle::LLVM14;
  if (V > (Raw ? 10 : 12))
    return InstrProfTextStyle::LLVM22;
  return InstrProfTextStyle::LLVM19;
}

namespace {

/// What InstrProfSummaryBuilder and show's own counters collect.
struct ShowTotals {
  uint64_t NumFunctions = 0;
  uint64_t MaxFunctionCount = 0;
  uint64_t MaxInternalCount = 0;
  uint64_t NumCounts = 0;
  uint64_t TotalCount = 0;
  size_t ShownFunctions = 0;
};

/// show's ValueSitesStats for one value kind.
struct ValueSiteTotals {
  uint64_t Sites = 0;
  uint64_t SitesWithValues = 0;
  uint64_t Values = 0;
  std::vector<unsigned> Histogram;
};

/// llvm-profdata's pseudo counts (InstrProfRecord::CountPseudoKind, LLVM
/// 15 and later): a first count of -1 (hot) or -2 (warm).
enum class PseudoKind { None, Hot, Warm };

PseudoKind pseudoKindOf(const InstrProfFunction &F) {
  if (F.Counts.empty())
    return PseudoKind::None;
  if (F.Counts[0] == uint64_t(-1))
    return PseudoKind::Hot;
  if (F.Counts[0] == uint64_t(-2))
    return PseudoKind::Warm;
  return PseudoKind::None;
}

class TextPrinter : public InstrProfPrinter, InstrProfConsumer {
public:
  TextPrinter(raw_ostream &OS, const InstrProfPrintOptions &O) : OS(OS), O(O) {}

  Error printFile(StringRef Path, Decoder Decode) override;

private:
  /// Prints the records of one profile and adds them to the totals.
  void consume(const InstrProfile &P) override;
  void printSummary();
  void printFunction(const InstrProfile &P, const InstrProfFunction &F,
                     bool IsIRInstr);
  void printSites(const InstrProfile &P, const InstrProfFunction &F,
                  uint32_t Kind, bool ByName);
  void printSiteTotals(const ValueSiteTotals &T);
  /// The MD5 under which this style looks up a target's name.
  uint64_t targetKey(const InstrProfile &P, const InstrProfValue &V) const;
  void addToSummary(const InstrProfFunction &F);

  raw_ostream &OS;
  const InstrProfPrintOptions &O;
  InstrProfTextStyle Style = InstrProfTextStyle::LLVM19;
  /// The file's profiles so far; the first decides the style and whether
  /// function counts are printed, the last names the instrumentation level.
  size_t NumProfiles = 0;
  bool IsIRInstr = false;
  uint64_t LastVersionWord = 0;
  ShowTotals Totals;
  ValueSiteTotals SiteTotals[IPVK_Last + 1];
};

void TextPrinter::addToSummary(const InstrProfFunction &F) {
  // A record without counts (a temporal profile's record of its timestamp
  // alone) adds nothing; llvm-profdata would read past its counts.
  if (F.Counts.empty())
    return;
  // llvm-profdata 14 leaves saturated counts (2^64-1, what merges reach)
  // out of the maximums, so a profile of saturated counts alone has
  // maximums of 0; later majors take such a record for a pseudo count.
  bool SkipSaturated = Style == InstrProfTextStyle::LLVM14;
  ++Totals.NumFunctions;
  for (size_t I = 0; I < F.Counts.size(); ++I) {
    uint64_t C = F.Counts[I];
    ++Totals.NumCounts;
    Totals.TotalCount += C;
    if (SkipSaturated && C == UINT64_MAX)
      continue;
    uint64_t &Max = I == 0 ? Totals.MaxFunctionCount : Totals.MaxInternalCount;
    Max = std::max(Max, C);
  }
}

uint64_t TextPrinter::targetKey(const InstrProfile &P,
                                const InstrProfValue &V) const {
  // llvm-profdata 14 maps function addresses to the NameRef of a raw
  // profile of the other byte order without swapping it, so it names no
  // target of such a profile.
  if (Style == InstrProfTextStyle::LLVM14 &&
      P.Header.Format == InstrProfFormat::Raw && !P.Header.IsLittleEndian &&
      V.Address && V.Value)
    return llvm::byteswap(V.Value);
  return V.Value;
}

void TextPrinter::printSites(const InstrProfile &P, const InstrProfFunction &F,
                             uint32_t Kind, bool ByName) {
  ValueSiteTotals &T = SiteTotals[Kind];
  ArrayRef<InstrProfValueSite> Sites = F.sites(Kind);
  T.Sites += Sites.size();
  for (size_t I = 0; I < Sites.size(); ++I) {
    const InstrProfValueSite &Site = Sites[I];
    if (Site.empty())
      continue;
    T.Values += Site.size();
    ++T.SitesWithValues;
    if (Site.size() > T.Histogram.size())
      T.Histogram.resize(Site.size(), 0);
    ++T.Histogram[Site.size() - 1];
    uint64_t Sum = 0;
    for (const InstrProfValue &V : Site)
      Sum += V.Count;
    if (Sum == 0)
      Sum = 1;
    for (const InstrProfValue &V : Site) {
      OS << "\t[ " << format("%2u", unsigned(I)) << ", ";
      if (ByName)
        OS << P.nameOf(targetKey(P, V));
      else
        OS << format("%4" PRIu64, V.Value);
      OS << ", " << format("%10" PRId64, int64_t(V.Count)) << " ] ("
         << format("%.2f%%", V.Count * 100.0 / Sum) << ")\n";
    }
  }
}

void TextPrinter::printSiteTotals(const ValueSiteTotals &T) {
  OS << "  Total number of sites: " << T.Sites << "\n";
  OS << "  Total number of sites with values: " << T.SitesWithValues << "\n";
  OS << "  Total number of profiled values: " << T.Values << "\n";
  OS << "  Value sites histogram:\n\tNumTargets, SiteCount\n";
  for (size_t I = 0; I < T.Histogram.size(); ++I)
    if (T.Histogram[I] > 0)
      OS << "\t" << I + 1 << ", " << T.Histogram[I] << "\n";
}

void TextPrinter::printFunction(const InstrProfile &P,
                                const InstrProfFunction &F, bool IsIRInstr) {
  if (Style != InstrProfTextStyle::LLVM14) {
    PseudoKind Pseudo = pseudoKindOf(F);
    if (Pseudo != PseudoKind::None) {
      if (!Totals.ShownFunctions)
        OS << "Counters:\n";
      ++Totals.ShownFunctions;
      // As llvm-profdata prints it: no line break before the marker.
      OS << "  " << F.Name << ":\n"
         << "    Hash: " << format("0x%016" PRIx64, F.Hash) << "\n"
         << "    Counters: " << F.Counts.size()
         << (Pseudo == PseudoKind::Hot ? "    <PseudoHot>\n"
                                       : "    <PseudoWarm>\n");
      return;
    }
  }
  addToSummary(F);
  if (!Totals.ShownFunctions)
    OS << "Counters:\n";
  ++Totals.ShownFunctions;
  OS << "  " << F.Name << ":\n"
     << "    Hash: " << format("0x%016" PRIx64, F.Hash) << "\n"
     << "    Counters: " << F.Counts.size() << "\n";
  if (!IsIRInstr)
    OS << "    Function count: " << (F.Counts.empty() ? 0 : F.Counts[0])
       << "\n";
  if (O.ICTargets)
    OS << "    Indirect Call Site Count: "
       << F.sites(IPVK_IndirectCallTarget).size() << "\n";
  if (O.VTables)
    OS << "    Number of instrumented vtables: "
       << F.sites(IPVK_VTableTarget).size() << "\n";
  size_t NumMemOPCalls = F.sites(IPVK_MemOPSize).size();
  if (O.MemOPSizes && NumMemOPCalls > 0)
    OS << "    Number of Memory Intrinsics Calls: " << NumMemOPCalls << "\n";
  if (O.Counts) {
    OS << "    Block counts: [";
    size_t Begin = IsIRInstr ? 0 : 1;
    for (size_t I = Begin; I < F.Counts.size(); ++I)
      OS << (I == Begin ? "" : ", ") << F.Counts[I];
    OS << "]\n";
  }
  if (O.ICTargets) {
    OS << "    Indirect Target Results:\n";
    printSites(P, F, IPVK_IndirectCallTarget, /*ByName=*/true);
  }
  if (O.VTables) {
    OS << "    VTable Results:\n";
    printSites(P, F, IPVK_VTableTarget, /*ByName=*/true);
  }
  if (O.MemOPSizes && NumMemOPCalls > 0) {
    OS << "    Memory Intrinsic Size Results:\n";
    printSites(P, F, IPVK_MemOPSize, /*ByName=*/false);
  }
}

void TextPrinter::consume(const InstrProfile &P) {
  // llvm-profdata decides whether to print function counts from the first
  // header, filters each record by the header it was read with, and names
  // the instrumentation level after the last.
  if (NumProfiles++ == 0) {
    Style = O.Style ? *O.Style : defaultTextStyle(P.Header);
    IsIRInstr = P.Header.isIRLevel();
  }
  LastVersionWord = P.Header.VersionWord;
  for (const InstrProfFunction &Fn : P.Functions) {
    if (P.Header.isIRLevel() && Fn.isContextSensitive() != O.ShowCS)
      continue;
    printFunction(P, Fn, IsIRInstr);
  }
}

void TextPrinter::printSummary() {
  InstrProfHeader Last;
  Last.VersionWord = LastVersionWord;
  OS << "Instrumentation level: " << (Last.isIRLevel() ? "IR" : "Front-end");
  if (Last.isIRLevel()) {
    OS << "  entry_first = " << Last.has(VariantEntryFirst);
    if (Style == InstrProfTextStyle::LLVM22)
      OS << "  instrument_loop_entries = " << Last.has(VariantLoopEntries);
  }
  OS << "\n";
  OS << "Functions shown: " << Totals.ShownFunctions << "\n";
  OS << "Total functions: " << Totals.NumFunctions << "\n";
  OS << "Maximum function count: " << Totals.MaxFunctionCount << "\n";
  OS << "Maximum internal block count: " << Totals.MaxInternalCount << "\n";
  if (Style == InstrProfTextStyle::LLVM22) {
    OS << "Total number of blocks: " << Totals.NumCounts << "\n";
    OS << "Total count: " << Totals.TotalCount << "\n";
  }
  if (Totals.ShownFunctions && O.ICTargets) {
    OS << "Statistics for indirect call sites profile:\n";
    printSiteTotals(SiteTotals[IPVK_IndirectCallTarget]);
  }
  if (Totals.ShownFunctions && O.VTables) {
    OS << "Statistics for vtable profile:\n";
    printSiteTotals(SiteTotals[IPVK_VTableTarget]);
  }
  if (Totals.ShownFunctions && O.MemOPSizes) {
    OS << "Statistics for memory intrinsic calls sizes profile:\n";
    printSiteTotals(SiteTotals[IPVK_MemOPSize]);
  }
}

Error TextPrinter::printFile(StringRef Path, Decoder Decode) {
  NumProfiles = 0;
  Totals = ShowTotals();
  for (ValueSiteTotals &T : SiteTotals)
    T = ValueSiteTotals();
  if (Error E = Decode(*this))
    return E;
  if (NumProfiles)
    printSummary();
  return Error::success();
}

/// The JSON name of value kind \p Kind (IPVK_* without the prefix).
std::string valueKindName(uint32_t Kind) {
  switch (Kind) {
  case IPVK_IndirectCallTarget:
    return "IndirectCallTarget";
  case IPVK_MemOPSize:
    return "MemOPSize";
  case IPVK_VTableTarget:
    return "VTableTarget";
  }
  return "Kind" + std::to_string(Kind);
}

class JSONPrinter : public InstrProfPrinter {
public:
  JSONPrinter(raw_ostream &OS, const InstrProfPrintOptions &O)
      : J(OS, O.PrettyJSON ? 2 : 0) {
    J.arrayBegin();
  }

  Error printFile(StringRef Path, Decoder Decode) override;
  void finish() override {
    J.arrayEnd();
    J.flush();
  }

private:
  void writeProfile(const InstrProfile &P);
  void writeFunction(const InstrProfile &P, const InstrProfFunction &F);

  json::OStream J;
};

void JSONPrinter::writeFunction(const InstrProfile &P,
                                const InstrProfFunction &F) {
  J.object([&] {
    J.attribute("Name", F.Name);
    J.attribute("NameMD5", F.NameMD5);
    J.attribute("Hash", F.Hash);
    J.attribute("ContextSensitive", F.isContextSensitive());
    J.attribute("Offset", F.Offset);
    if (F.FunctionAddress)
      J.attribute("FunctionAddress", *F.FunctionAddress);
    if (F.Timestamp)
      J.attribute("Timestamp", *F.Timestamp);
    J.attributeArray("Counts", [&] {
      for (uint64_t C : F.Counts)
        J.value(C);
    });
    J.attributeArray("BitmapBytes", [&] {
      for (uint8_t B : F.BitmapBytes)
        J.value(B);
    });
    J.attributeObject("ValueSites", [&] {
      for (uint32_t Kind = 0; Kind < F.ValueSites.size(); ++Kind)
        J.attributeArray(valueKindName(Kind), [&] {
          for (const InstrProfValueSite &Site : F.ValueSites[Kind])
            J.array([&] {
              for (const InstrProfValue &V : Site)
                J.object([&] {
                  J.attribute("Value", V.Value);
                  J.attribute("Count", V.Count);
                  if (V.Address)
                    J.attribute("Address", *V.Address);
                  if (Kind != IPVK_MemOPSize)
                    J.attribute("Name", P.nameOf(V.Value));
                });
            });
        });
    });
  });
}

void JSONPrinter::writeProfile(const InstrProfile &P) {
  const InstrProfHeader &H = P.Header;
  J.object([&] {
    J.attribute("Offset", P.Offset);
    J.attribute("Version", H.version());
    J.attribute("VersionWord", H.VersionWord);
    J.attributeArray("Variant", [&] {
      for (const InstrProfVariantName &V : variantNames())
        if (H.has(V.Flag))
          J.value(V.Name);
    });
    J.attribute("ByteOrder", H.IsLittleEndian ? "little" : "big");
    if (H.Format == InstrProfFormat::Raw)
      J.attribute("PointerSize", H.PointerSize);
    if (H.HashType)
      J.attribute("HashType", *H.HashType);
    J.attributeArray("Header", [&] {
      for (const InstrProfField &F : H.Fields)
        J.object([&] {
          J.attribute("Name", F.Name);
          J.attribute("Offset", F.Offset);
          J.attribute("Value", F.Value);
        });
    });
    J.attributeArray("Sections", [&] {
      for (const InstrProfSection &S : P.Sections)
        J.object([&] {
          J.attribute("Name", S.Name);
          J.attribute("Offset", S.Offset);
          J.attribute("Size", S.Size);
          if (S.Version)
            J.attribute("Version", *S.Version);
        });
    });
    J.attributeArray("BinaryIds", [&] {
      for (const object::BuildID &Id : P.BinaryIds)
        J.value(toHex(Id, /*LowerCase=*/true));
    });
    J.attributeArray("Summaries", [&] {
      for (const InstrProfSummary &S : P.Summaries)
        J.object([&] {
          J.attribute("ContextSensitive", S.ContextSensitive);
          J.attribute("Offset", S.Offset);
          J.attributeArray("Fields", [&] {
            for (uint64_t V : S.Fields)
              J.value(V);
          });
          J.attributeArray("Cutoffs", [&] {
            for (const ProfileSummaryEntry &E : S.Cutoffs)
              J.object([&] {
                J.attribute("Cutoff", E.Cutoff);
                J.attribute("MinCount", E.MinCount);
                J.attribute("NumCounts", E.NumCounts);
              });
          });
        });
    });
    J.attributeArray("TemporalTraces", [&] {
      for (const InstrProfTemporalTrace &T : P.TemporalTraces)
        J.object([&] {
          J.attribute("Weight", T.Weight);
          J.attributeArray("FunctionNameRefs", [&] {
            for (uint64_t Ref : T.FunctionNameRefs)
              J.value(Ref);
          });
        });
    });
    J.attributeArray("Names", [&] {
      for (const std::string &N : P.Names)
        J.value(N);
    });
    J.attributeArray("VTableNames", [&] {
      for (const std::string &N : P.VTableNames)
        J.value(N);
    });
    J.attributeArray("Functions", [&] {
      for (const InstrProfFunction &F : P.Functions)
        writeFunction(P, F);
    });
  });
}

Error JSONPrinter::printFile(StringRef Path, Decoder Decode) {
  // The whole file first, so that a file that fails leaves no partial
  // object behind.
  InstrProfCollector Collector;
  if (Error E = Decode(Collector))
    return E;
  InstrProfileFile F = Collector.take();
  J.object([&] {
    J.attribute("File", Path);
    J.attribute("Format", formatName(F.Format));
    J.attributeArray("Profiles", [&] {
      for (const InstrProfile &P : F.Profiles)
        writeProfile(P);
    });
  });
  return Error::success();
}

} // namespace

std::unique_ptr<InstrProfPrinter>
createInstrProfPrinter(raw_ostream &OS, const InstrProfPrintOptions &O) {
  if (O.JSON)
    return std::make_unique<JSONPrinter>(OS, O);
  return std::make_unique<TextPrinter>(OS, O);
}

} // namespace bbmap
