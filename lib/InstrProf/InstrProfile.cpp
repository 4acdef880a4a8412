//===- InstrProfile.cpp - instrumentation profile model -------------------===//
//
// The model's small helpers: names of formats and variant flags, header
// field look-up, the MD5-to-name index, and the consumer that keeps a
// whole file.
//
//===----------------------------------------------------------------------===//

#include "bbmap/InstrProf/InstrProfile.h"
#include "llvm/Support/MD5.h"

using namespace llvm;

namespace bbmap {

StringRef formatName(InstrProfFormat F) {
  return F == InstrProfFormat::Raw ? "raw" : "indexed";
}

ArrayRef<InstrProfVariantName> variantNames() {
  static const InstrProfVariantName Names[] = {
      {VariantLoopEntries, "loop-entries"},
      {VariantIR, "ir"},
      {VariantContextSensitive, "context-sensitive"},
      {VariantEntryFirst, "entry-first"},
      {VariantDebugInfoCorrelate, "debug-info-correlate"},
      {VariantSingleByteCoverage, "single-byte-coverage"},
      {VariantFunctionEntryOnly, "function-entry-only"},
      {VariantMemProf, "memory-profile"},
      {VariantTemporal, "temporal"},
  };
  return Names;
}

std::optional<uint64_t> InstrProfHeader::field(StringRef Name) const {
  for (const InstrProfField &F : Fields)
    if (F.Name == Name)
      return F.Value;
  return std::nullopt;
}

StringRef InstrProfile::nameOf(uint64_t MD5) const {
  auto It = NamesByMD5.find(MD5);
  if (It == NamesByMD5.end())
    return StringRef();
  if (It->second < Names.size())
    return Names[It->second];
  return VTableNames[It->second - Names.size()];
}

void InstrProfile::indexNames() {
  NamesByMD5.clear();
  NamesByMD5.reserve(Names.size() + VTableNames.size());
  for (size_t I = 0; I < Names.size(); ++I)
    NamesByMD5.emplace(MD5Hash(Names[I]), I);
  for (size_t I = 0; I < VTableNames.size(); ++I)
    NamesByMD5.emplace(MD5Hash(VTableNames[I]), Names.size() + I);
}

InstrProfileFile InstrProfCollector::take() {
  if (!File.Profiles.empty())
    File.Format = File.Profiles.front().Header.Format;
  return std::move(File);
}

} // namespace bbmap
