//===- BoltYAML.cpp - read and write BOLT YAML profiles -------------------===//
//
// One set of llvm::yaml mapping traits serves both directions: in input
// mode they fill the model and accept, then drop, the pseudo-probe keys;
// in output mode they write the keys BOLT's mapping writes, in its order,
// with its defaults omitted, so that yaml::Output lays the text out as
// BOLT's writer does. Before parsing, an estimate of the nesting depth
// bounds the recursion of LLVM's YAML parser; after it, the functions are
// checked against their `nblocks` and for repeated function ids.
//
//===----------------------------------------------------------------------===//

#include "bbmap/BoltProfile/BoltYAML.h"
#include "bbmap/Support/AnyKeyMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/YAMLTraits.h"
#include <optional>

using namespace llvm;
using namespace bbmap::boltyaml;

namespace {

/// `profile-version`, a number that must be 1.
struct ProfileVersion {
  uint32_t Value = 1;
};

LLVM_YAML_STRONG_TYPEDEF(uint8_t, ProfileFlagSet)

/// Any YAML value, accepted and dropped unread: the keys of pseudo probes.
struct IgnoredValue {};

/// The overload processKey picks for IgnoredValue (a non-template beats
/// the trait-driven templates): the key counts as known, and its value,
/// whatever its kind, is not visited.
[[maybe_unused]] void yamlize(yaml::IO &, IgnoredValue &, bool,
                              yaml::EmptyContext &) {}

/// Maps \p Field through the YAML type \p YamlT (Hex32, Hex64): required,
/// or optional with the default 0. The field is only written when reading.
template <typename YamlT, typename T>
void mapHex(yaml::IO &IO, const char *Key, T &Field, bool Required) {
  YamlT Value(Field);
  if (Required)
    IO.mapRequired(Key, Value);
  else
    IO.mapOptional(Key, Value, YamlT(0));
  if (!IO.outputting())
    Field = Value;
}

/// Reads and drops the keys of \p Keys, when reading.
void ignoreKeys(yaml::IO &IO, std::initializer_list<const char *> Keys) {
  if (IO.outputting())
    return;
  for (const char *Key : Keys) {
    IgnoredValue Value;
    IO.mapOptional(Key, Value);
  }
}

} // namespace

LLVM_YAML_IS_FLOW_SEQUENCE_VECTOR(CallSite)
LLVM_YAML_IS_FLOW_SEQUENCE_VECTOR(Successor)
LLVM_YAML_IS_SEQUENCE_VECTOR(Block)
LLVM_YAML_IS_SEQUENCE_VECTOR(Function)

namespace llvm {
namespace yaml {

template <> struct ScalarTraits<ProfileVersion> {
  static void output(const ProfileVersion &V, void *, raw_ostream &OS) {
    OS << V.Value;
  }
  static StringRef input(StringRef Scalar, void *, ProfileVersion &V) {
    if (Scalar.getAsInteger(0, V.Value) || V.Value != 1)
      return "unsupported profile-version (expected 1)";
    return {};
  }
  static QuotingType mustQuote(StringRef) { return QuotingType::None; }
};

template <> struct ScalarTraits<HashFunction> {
  static void output(const HashFunction &H, void *, raw_ostream &OS) {
    OS << (H == HashFunction::XXH3 ? "xxh3" : "std-hash");
  }
  static StringRef input(StringRef Scalar, void *, HashFunction &H) {
    if (Scalar == "std-hash")
      H = HashFunction::StdHash;
    else if (Scalar == "xxh3")
      H = HashFunction::XXH3;
    else
      return "unknown hash-func (expected std-hash or xxh3)";
    return {};
  }
  static QuotingType mustQuote(StringRef) { return QuotingType::None; }
};

template <> struct ScalarBitSetTraits<ProfileFlagSet> {
  static void bitset(IO &IO, ProfileFlagSet &Flags) {
    IO.bitSetCase(Flags, "lbr", ProfileLBR);
    IO.bitSetCase(Flags, "sample", ProfileSample);
    IO.bitSetCase(Flags, "memevent", ProfileMemEvent);
  }
};

template <> struct MappingTraits<CallSite> {
  static void mapping(IO &IO, CallSite &C) {
    mapHex<Hex32>(IO, "off", C.Offset, /*Required=*/true);
    IO.mapRequired("fid", C.CalleeId);
    IO.mapOptional("disc", C.EntryDiscriminator, uint32_t(0));
    IO.mapRequired("cnt", C.Count);
    IO.mapOptional("mis", C.Mispreds, uint64_t(0));
    ignoreKeys(IO, {"pp", "ppn", "ind"});
  }
  static const bool flow = true;
};

template <> struct MappingTraits<Successor> {
  static void mapping(IO &IO, Successor &S) {
    IO.mapRequired("bid", S.Index);
    IO.mapRequired("cnt", S.Count);
    IO.mapOptional("mis", S.Mispreds, uint64_t(0));
  }
  static const bool flow = true;
};

template <> struct MappingTraits<Block> {
  static void mapping(IO &IO, Block &B) {
    IO.mapRequired("bid", B.Index);
    IO.mapRequired("insns", B.NumInstructions);
    mapHex<Hex64>(IO, "hash", B.Hash, /*Required=*/false);
    IO.mapOptional("exec", B.ExecCount, uint64_t(0));
    IO.mapOptional("events", B.EventCount, uint64_t(0));
    // yaml::Output leaves out empty sequences, as BOLT's empty defaults do.
    IO.mapOptional("calls", B.Calls);
    IO.mapOptional("succ", B.Successors);
    ignoreKeys(IO, {"pseudo_probes", "probes", "probe"});
  }
};

template <> struct MappingTraits<Function> {
  static void mapping(IO &IO, Function &F) {
    IO.mapRequired("name", F.Name);
    IO.mapRequired("fid", F.Id);
    mapHex<Hex64>(IO, "hash", F.Hash, /*Required=*/true);
    IO.mapRequired("exec", F.ExecCount);
    IO.mapOptional("extern", F.ExternEntryCount, uint64_t(0));
    IO.mapRequired("nblocks", F.NumBlocks);
    IO.mapOptional("blocks", F.Blocks);
    ignoreKeys(IO, {"guid", "pseudo_probe_desc_hash", "inline_tree", "ppit"});
  }
};

template <> struct MappingTraits<Header> {
  static void mapping(IO &IO, Header &H) {
    ProfileVersion Version{H.Version};
    IO.mapRequired("profile-version", Version);
    IO.mapRequired("binary-name", H.BinaryName);
    IO.mapOptional("binary-build-id", H.BuildID);
    ProfileFlagSet Flags(H.Flags);
    IO.mapRequired("profile-flags", Flags);
    IO.mapOptional("profile-origin", H.Origin);
    IO.mapOptional("profile-events", H.EventNames);
    mapDFSOrder(IO, H);
    IO.mapOptional("hash-func", H.Hash, HashFunction::StdHash);
    if (IO.outputting())
      return;
    H.Version = Version.Value;
    H.Flags = Flags;
  }

  /// `dfs-order`: written when the file had it; BOLT reads its absence as
  /// depth-first order.
  static void mapDFSOrder(IO &IO, Header &H) {
    std::optional<bool> IsDFSOrder;
    if (IO.outputting() && H.HasDFSOrderKey)
      IsDFSOrder = H.IsDFSOrder;
    IO.mapOptional("dfs-order", IsDFSOrder);
    if (IO.outputting())
      return;
    H.HasDFSOrderKey = IsDFSOrder.has_value();
    H.IsDFSOrder = IsDFSOrder.value_or(true);
  }
};

template <> struct MappingTraits<Profile> {
  static void mapping(IO &IO, Profile &P) {
    IO.mapRequired("header", P.Head);
    IO.mapRequired("functions", P.Functions);
    ignoreKeys(IO, {"pseudo_probe_desc"});
  }
};

} // namespace yaml
} // namespace llvm

namespace {

Error makeError(const Twine &Msg) {
  return createStringError(std::make_error_code(std::errc::invalid_argument),
                           Msg);
}

/// Scans \p Text for collections nested deeper than MaxNesting, from an
/// upper bound of the depth at each character: open flow brackets plus
/// twice the run of indentation and `-`, `?`, `:` indicators that starts
/// its line (a block level takes at least one column, and a sequence may
/// sit at its key's column). Quoted scalars and comments are skipped.
class NestingScanner {
public:
  explicit NestingScanner(StringRef Text) : Text(Text) {}

  /// The line and column where the bound first exceeds MaxNesting.
  std::optional<std::pair<size_t, size_t>> findTooDeep();

private:
  void newLine(size_t I) {
    ++Line;
    LineStart = I + 1;
    Indent = 0;
    InIndent = true;
  }
  /// Skips the quoted scalar that starts at \p I; returns its last index.
  size_t skipQuoted(size_t I);
  bool startsToken(size_t I) const {
    if (I == LineStart)
      return true;
    return StringRef(" \t[{,-?:").contains(Text[I - 1]);
  }

  StringRef Text;
  size_t Line = 1;
  size_t LineStart = 0;
  unsigned Indent = 0;
  bool InIndent = true;
  unsigned Flow = 0;
};

size_t NestingScanner::skipQuoted(size_t I) {
  char Quote = Text[I];
  for (++I; I < Text.size(); ++I) {
    char C = Text[I];
    if (C == '\n')
      newLine(I);
    else if (Quote == '"' && C == '\\')
      ++I;
    else if (C == Quote && Quote == '\'' && I + 1 < Text.size() &&
             Text[I + 1] == '\'')
      ++I;
    else if (C == Quote)
      return I;
  }
  return I;
}

std::optional<std::pair<size_t, size_t>> NestingScanner::findTooDeep() {
  for (size_t I = 0; I < Text.size(); ++I) {
    char C = Text[I];
    if (C == '\n') {
      newLine(I);
      continue;
    }
    if (InIndent && StringRef(" \t-?:").contains(C)) {
      ++Indent;
    } else {
      InIndent = false;
      if ((C == '\'' || C == '"') && startsToken(I)) {
        I = skipQuoted(I);
        continue;
      }
      if (C == '#' && startsToken(I)) {
        I = Text.find('\n', I) - 1;
        continue;
      }
      if (C == '[' || C == '{')
        ++Flow;
      else if ((C == ']' || C == '}') && Flow)
        --Flow;
    }
    if (Flow + 2 * Indent + 1 > MaxNesting)
      return std::make_pair(Line, I - LineStart + 1);
  }
  return std::nullopt;
}

/// The first diagnostic of the YAML parser, as "<line>:<column>: <what>".
struct FirstDiagnostic {
  std::string Text;

  static void handle(const SMDiagnostic &D, void *Context) {
    auto *First = static_cast<FirstDiagnostic *>(Context);
    if (!First->Text.empty() || D.getKind() != SourceMgr::DK_Error)
      return;
    First->Text = (Twine(D.getLineNo()) + ":" + Twine(D.getColumnNo() + 1) +
                   ": " + D.getMessage())
                      .str();
  }
};

Expected<Profile> parse(MemoryBufferRef Buffer) {
  StringRef Name = Buffer.getBufferIdentifier();
  if (auto Where = NestingScanner(Buffer.getBuffer()).findTooDeep())
    return makeError(Name + ":" + Twine(Where->first) + ":" +
                     Twine(Where->second) + ": collections nested deeper " +
                     "than " + Twine(MaxNesting) + " levels");
  FirstDiagnostic First;
  yaml::Input In(Buffer, nullptr, FirstDiagnostic::handle, &First);
  Profile P;
  In >> P;
  if (!In.error())
    return P;
  if (First.Text.empty())
    return makeError(Name + ": no YAML document with a 'header' and "
                            "'functions'");
  return makeError(Name + ":" + First.Text);
}

/// Checks each function against its `nblocks` and the fids before it;
/// returns the message of the first problem, or an empty string. A call's
/// fid is not checked: BOLT writes the callee's number whether or not the
/// callee has a profile (llvm-bolt -w names PLT entries it leaves out),
/// and 0 for an unknown callee.
class FunctionChecker {
public:
  explicit FunctionChecker(const Profile &P) {
    for (const Function &F : P.Functions)
      FirstWithId.try_emplace(F.Id, &F);
  }

  std::string check(const Function &F) const;

private:
  std::string checkBlock(const Function &F, const Block &B) const;

  /// Every uint32_t is a fid, DenseMap's reserved keys too.
  bbmap::AnyKeyMap<uint32_t, const Function *> FirstWithId;
};

std::string FunctionChecker::checkBlock(const Function &F,
                                        const Block &B) const {
  std::string Msg;
  raw_string_ostream OS(Msg);
  if (B.Index >= F.NumBlocks) {
    OS << "block " << B.Index << " is not below nblocks " << F.NumBlocks;
    return Msg;
  }
  for (const Successor &S : B.Successors)
    if (S.Index >= F.NumBlocks) {
      OS << "block " << B.Index << " has successor " << S.Index
         << ", not below nblocks " << F.NumBlocks;
      return Msg;
    }
  return Msg;
}

std::string FunctionChecker::check(const Function &F) const {
  const Function *First = FirstWithId.lookup(F.Id);
  if (First != &F)
    return ("fid " + Twine(F.Id) + " is also the fid of '" + First->Name + "'")
        .str();
  for (const Block &B : F.Blocks)
    if (std::string Msg = checkBlock(F, B); !Msg.empty())
      return Msg;
  std::vector<uint32_t> Indices;
  Indices.reserve(F.Blocks.size());
  for (const Block &B : F.Blocks)
    Indices.push_back(B.Index);
  llvm::sort(Indices);
  auto Dup = std::adjacent_find(Indices.begin(), Indices.end());
  if (Dup != Indices.end())
    return ("block " + Twine(*Dup) + " is listed twice").str();
  return {};
}

/// Moves the functions that pass FunctionChecker to the front of \p P's
/// list, describes the others in \p Problems, and drops them.
void leaveOutInconsistent(Profile &P, std::vector<FunctionProblem> *Problems) {
  FunctionChecker Checker(P);
  std::vector<std::string> Messages;
  Messages.reserve(P.Functions.size());
  for (const Function &F : P.Functions)
    Messages.push_back(Checker.check(F));
  size_t Kept = 0;
  for (size_t I = 0; I < P.Functions.size(); ++I) {
    if (Messages[I].empty()) {
      if (Kept != I)
        P.Functions[Kept] = std::move(P.Functions[I]);
      ++Kept;
    } else if (Problems) {
      Problems->push_back({P.Functions[I].Name, std::move(Messages[I])});
    }
  }
  P.Functions.resize(Kept);
}

} // namespace

namespace bbmap {
namespace boltyaml {

Expected<Profile> readBoltYAML(MemoryBufferRef Buffer,
                               std::vector<FunctionProblem> *Problems) {
  Expected<Profile> P = parse(Buffer);
  if (P)
    leaveOutInconsistent(*P, Problems);
  return P;
}

void writeBoltYAML(const Profile &P, raw_ostream &OS) {
  // The traits write nothing back into the model when outputting.
  yaml::Output Out(OS, nullptr, /*WrapColumn=*/0);
  Out << const_cast<Profile &>(P);
}

} // namespace boltyaml
} // namespace bbmap
