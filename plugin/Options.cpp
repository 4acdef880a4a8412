//===- plugin/Options.cpp - bbmap plugin configuration --------------------===//
//
// Defines the -bbmap-* options, parses BBMAP_OPTIONS with the same syntax, and
// validates the combination against the chosen encoding version.
//
//===----------------------------------------------------------------------===//

#include "Options.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Process.h"
#include <memory>

using namespace llvm;

namespace bbmap {

Encoding nativeEncoding() {
  return Encoding::versioned(LLVM_VERSION_MAJOR >= 22 ? 5 : 2);
}

namespace {

/// The options, created on first registration so that a second copy of the
/// plugin in the same process does not register the same names again.
struct OptionSet {
  cl::OptionCategory Category{"bbmap plugin options"};
  cl::opt<bool> Disable{"bbmap-disable",
                        cl::desc("Do not emit .llvm_bb_addr_map from bbmap"),
                        cl::cat(Category)};
  cl::opt<std::string> Version{
      "bbmap-version",
      cl::desc("Map encoding: native (the host's own: 2 on LLVM 19, 5 on "
               "LLVM 22), v0-type (legacy section type 0x6fff4c08), or a "
               "version number 0-5"),
      cl::value_desc("encoding"), cl::init("native"), cl::cat(Category)};
  cl::opt<std::string> PGOAnalysis{
      "bbmap-pgo-analysis",
      cl::desc("PGO analyses to add (version >= 2): none, all, or a comma "
               "list of func-entry-count, bb-freq, br-prob"),
      cl::value_desc("list"), cl::init("none"), cl::cat(Category)};
  cl::opt<bool> SkipBBEntries{
      "bbmap-skip-bb-entries",
      cl::desc("Write block counts but no block entries (version >= 2)"),
      cl::cat(Category)};
  cl::opt<bool> BlockHash{"bbmap-bb-hash",
                          cl::desc("Add a hash per block (version >= 4)"),
                          cl::cat(Category)};
};

std::unique_ptr<OptionSet> &optionSet() {
  static std::unique_ptr<OptionSet> Set;
  return Set;
}

Error optionError(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), "bbmap: " + Msg);
}

Expected<Encoding> parseEncoding(StringRef S) {
  if (S == "native")
    return nativeEncoding();
  if (S == "v0-type")
    return Encoding::legacy();
  unsigned V;
  if (!S.getAsInteger(10, V) && V <= MaxVersion)
    return Encoding::versioned(V);
  return optionError("invalid -bbmap-version '" + S +
                     "' (expected native, v0-type or 0-" + Twine(MaxVersion) +
                     ")");
}

Expected<uint16_t> parsePGOFeatures(StringRef S) {
  if (S == "none" || S.empty())
    return 0;
  if (S == "all")
    return feature::PGOMask;
  SmallVector<StringRef, 3> Items;
  S.split(Items, ',');
  uint16_t Bits = 0;
  for (StringRef Item : Items) {
    if (Item == "func-entry-count")
      Bits |= feature::FuncEntryCount;
    else if (Item == "bb-freq")
      Bits |= feature::BBFreq;
    else if (Item == "br-prob")
      Bits |= feature::BrProb;
    else
      return optionError("invalid -bbmap-pgo-analysis item '" + Item +
                         "' (expected none, all, func-entry-count, bb-freq "
                         "or br-prob)");
  }
  return Bits;
}

/// The raw option values, before they are parsed and checked.
struct RawOptions {
  bool Disable = false;
  std::string Version = "native";
  std::string PGOAnalysis = "none";
  bool SkipBBEntries = false;
  bool BlockHash = false;
};

Expected<bool> parseFlag(StringRef Name, std::optional<StringRef> Value) {
  if (!Value || *Value == "true" || *Value == "1")
    return true;
  if (*Value == "false" || *Value == "0")
    return false;
  return optionError("BBMAP_OPTIONS: invalid value '" + *Value + "' for -" +
                     Name);
}

/// Applies one BBMAP_OPTIONS word, e.g. "-bbmap-version=3".
Error applyEnvironmentWord(StringRef Word, RawOptions &Raw) {
  StringRef Body = Word.ltrim('-');
  auto [Name, Rest] = Body.split('=');
  std::optional<StringRef> Value;
  if (Body.contains('='))
    Value = Rest;
  auto Flag = [&](bool &Out) -> Error {
    Expected<bool> B = parseFlag(Name, Value);
    if (!B)
      return B.takeError();
    Out = *B;
    return Error::success();
  };
  auto Text = [&](std::string &Out) -> Error {
    if (!Value)
      return optionError("BBMAP_OPTIONS: -" + Name + " needs a value");
    Out = Value->str();
    return Error::success();
  };
  if (Name == "bbmap-disable")
    return Flag(Raw.Disable);
  if (Name == "bbmap-skip-bb-entries")
    return Flag(Raw.SkipBBEntries);
  if (Name == "bbmap-bb-hash")
    return Flag(Raw.BlockHash);
  if (Name == "bbmap-version")
    return Text(Raw.Version);
  if (Name == "bbmap-pgo-analysis")
    return Text(Raw.PGOAnalysis);
  return optionError("BBMAP_OPTIONS: unknown option '" + Word + "'");
}

Expected<RawOptions> readRawOptions() {
  RawOptions Raw;
  if (std::optional<std::string> Env = sys::Process::GetEnv("BBMAP_OPTIONS")) {
    SmallVector<StringRef, 8> Words;
    StringRef(*Env).split(Words, ' ', -1, /*KeepEmpty=*/false);
    for (StringRef W : Words)
      if (Error E = applyEnvironmentWord(W.trim(), Raw))
        return E;
  }
  // Options given on the command line override the environment.
  if (const std::unique_ptr<OptionSet> &Set = optionSet()) {
    if (Set->Disable.getNumOccurrences())
      Raw.Disable = Set->Disable;
    if (Set->Version.getNumOccurrences())
      Raw.Version = Set->Version;
    if (Set->PGOAnalysis.getNumOccurrences())
      Raw.PGOAnalysis = Set->PGOAnalysis;
    if (Set->SkipBBEntries.getNumOccurrences())
      Raw.SkipBBEntries = Set->SkipBBEntries;
    if (Set->BlockHash.getNumOccurrences())
      Raw.BlockHash = Set->BlockHash;
  }
  return Raw;
}

/// Checks that the requested features exist in the chosen encoding.
Error checkCombination(const MapOptions &O) {
  auto Needs = [&](bool Asked, uint16_t Bit, StringRef Opt) -> Error {
    if (!Asked || O.Enc.allowsFeatures(Bit))
      return Error::success();
    return optionError(Opt + " needs -bbmap-version=" +
                       Twine(Encoding::minVersionFor(Bit)) + " or later");
  };
  if (Error E = Needs(O.PGOFeatures != 0, feature::FuncEntryCount,
                      "-bbmap-pgo-analysis"))
    return E;
  if (Error E = Needs(O.SkipBBEntries, feature::OmitBBEntries,
                      "-bbmap-skip-bb-entries"))
    return E;
  if (Error E = Needs(O.BlockHash, feature::BBHash, "-bbmap-bb-hash"))
    return E;
  if (O.SkipBBEntries && (O.PGOFeatures & (feature::BBFreq | feature::BrProb)))
    return optionError("-bbmap-skip-bb-entries cannot be combined with "
                       "bb-freq or br-prob: they need the block entries");
  return Error::success();
}

} // namespace

bool registerOptions() {
  if (cl::getRegisteredOptions().count("bbmap-version"))
    return optionSet() != nullptr;
  optionSet() = std::make_unique<OptionSet>();
  return true;
}

Expected<MapOptions> resolveOptions() {
  Expected<RawOptions> Raw = readRawOptions();
  if (!Raw)
    return Raw.takeError();
  MapOptions O;
  O.Enabled = !Raw->Disable;
  Expected<Encoding> Enc = parseEncoding(Raw->Version);
  if (!Enc)
    return Enc.takeError();
  O.Enc = *Enc;
  Expected<uint16_t> PGO = parsePGOFeatures(Raw->PGOAnalysis);
  if (!PGO)
    return PGO.takeError();
  O.PGOFeatures = *PGO;
  O.SkipBBEntries = Raw->SkipBBEntries;
  O.BlockHash = Raw->BlockHash;
  if (Error E = checkCombination(O))
    return E;
  return O;
}

} // namespace bbmap
