//===- BoltFunctionTable.cpp - the functions BOLT sees in a binary --------===//
//
// Symbols are read in symbol-table order (to know the FILE symbol that
// precedes each local), then stably sorted by address with STT_FUNC, then
// STT_SECTION first among equals, the order in which BOLT numbers local names:
// every local symbol of an allocatable section counts, functions and data
// alike.
//
//===----------------------------------------------------------------------===//

#include "bbmap/BoltProfile/BoltFunctionTable.h"
#include "bbmap/Object/FrameRanges.h"
#include "bbmap/Support/Parallel.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/Config/llvm-config.h"

#include <set>

using namespace llvm;
using namespace llvm::object;

namespace bbmap {

namespace {

struct SymbolInfo {
  uint64_t Address = 0;
  uint64_t Size = 0;
  uint64_t SectionEnd = 0;
  StringRef Name;
  StringRef FileName;
  bool IsLocal = false;
  bool IsFunction = false;
  /// STT_NOTYPE.
  bool IsUntyped = false;
  bool IsSection = false;
  bool InCode = false;
  /// A PLT section, whose section symbol BOLT skips.
  bool InPLT = false;

  /// Starts a function: an STT_FUNC symbol, or a section symbol other than
  /// a PLT section's (the .init of a BOLTed binary, whose _init moved, is
  /// BOLT's `.init/1`; the old code at the start of its `.bolt.org.text`,
  /// `.bolt.org.text/1`).
  bool startsFunction() const {
    return (IsFunction || (IsSection && !InPLT)) && InCode;
  }
};

/// BOLT makes PLT entries of these sections' code, and no function of
/// their section symbols or FDEs.
bool isPLTSection(StringRef Name) {
  return Name.starts_with(".plt") || Name == ".iplt";
}

/// Keeps a warning if the name of a section of \p Obj cannot be read (the
/// first such section): no name looked for is then found there.
void checkSectionNames(const ELFObjectFileBase &Obj, WarningList &Warnings) {
  for (const SectionRef &S : Obj.sections())
    if (Expected<StringRef> Name = S.getName(); !Name)
      return Warnings.add("section name",
                          "unable to read the name of section [" +
                              Twine(S.getIndex()) + "]",
                          Name.takeError());
}

/// Keeps the problem \p E of reading \p What of symbol \p S; false.
bool warnSymbol(WarningList &Warnings, const ELFSymbolRef &S, StringRef What,
                Error E) {
  Warnings.add(("symbol " + What).str(),
               "unable to read the " + What + " of symbol with index " +
                   Twine(S.getRawDataRefImpl().d.b),
               std::move(E));
  return false;
}

/// Reads \p S into \p Info; false for symbols BOLT does not register
/// (undefined, absolute, at address 0, outside allocatable sections) and
/// for those that cannot be read (a warning in \p Warnings).
bool readSymbol(const ELFObjectFileBase &Obj, const ELFSymbolRef &S,
                SymbolInfo &Info, WarningList &Warnings) {
  Expected<uint32_t> Flags = S.getFlags();
  if (!Flags)
    return warnSymbol(Warnings, S, "flags", Flags.takeError());
  Expected<StringRef> Name = S.getName();
  if (!Name)
    return warnSymbol(Warnings, S, "name", Name.takeError());
  Expected<uint64_t> Addr = S.getAddress();
  if (!Addr)
    return warnSymbol(Warnings, S, "address", Addr.takeError());
  Expected<section_iterator> Sec = S.getSection();
  if (!Sec)
    return warnSymbol(Warnings, S, "section", Sec.takeError());
  if ((*Flags & SymbolRef::SF_Undefined) || *Addr == 0 ||
      *Sec == Obj.section_end() ||
      !(ELFSectionRef(**Sec).getFlags() & ELF::SHF_ALLOC))
    return false;
  Info.Address = *Addr;
  Info.Size = S.getSize();
  Info.SectionEnd = (*Sec)->getAddress() + (*Sec)->getSize();
  Info.Name = *Name;
  Info.IsLocal = S.getBinding() == ELF::STB_LOCAL;
  Info.IsFunction = S.getELFType() == ELF::STT_FUNC;
  Info.IsSection = S.getELFType() == ELF::STT_SECTION;
  Info.IsUntyped = S.getELFType() == ELF::STT_NOTYPE;
  Info.InCode = (*Sec)->isText();
  Expected<StringRef> SecName = (*Sec)->getName();
  Info.InPLT = SecName && isPLTSection(*SecName);
  // Warned of by checkSectionNames.
  consumeError(SecName.takeError());
  return true;
}

std::vector<SymbolInfo> readSymbols(const ELFObjectFileBase &Obj,
                                    WarningList &Warnings) {
  std::vector<SymbolInfo> Syms;
  StringRef FileName;
  for (const ELFSymbolRef &S : Obj.symbols()) {
    // getELFType() aborts on a symbol its table cannot give; getType()
    // fails then, and only then.
    if (Expected<SymbolRef::Type> Type = S.getType(); !Type) {
      Warnings.add("symbol table", "unable to read the symbol table",
                   Type.takeError());
      continue;
    }
    if (S.getELFType() == ELF::STT_FILE) {
      Expected<StringRef> Name = S.getName();
      FileName = Name ? *Name : StringRef();
      if (!Name)
        warnSymbol(Warnings, S, "name", Name.takeError());
      continue;
    }
    SymbolInfo Info;
    if (!readSymbol(Obj, S, Info, Warnings))
      continue;
    Info.FileName = Info.IsLocal ? FileName : StringRef();
    Syms.push_back(Info);
  }
  llvm::stable_sort(Syms, [](const SymbolInfo &A, const SymbolInfo &B) {
    if (A.Address != B.Address)
      return A.Address < B.Address;
    if (A.IsFunction != B.IsFunction)
      return A.IsFunction;
    return A.IsSection && !B.IsSection;
  });
  return Syms;
}

/// BOLT's NameResolver::uniquify: `Name/N`, N counting from 1 per name.
class NameCounter {
public:
  std::string uniquify(StringRef Name) {
    return (Name + "/" + Twine(++Counts[Name])).str();
  }

private:
  StringMap<unsigned> Counts;
};

/// An AArch64 or ARM mapping symbol (`$x`, `$d`, `$x.N`): BOLT keeps
/// these apart as markers.
bool isMappingSymbol(StringRef Name) {
  return Name == "$x" || Name == "$d" || Name.starts_with("$x.") ||
         Name.starts_with("$d.");
}

/// Gives each function the entry points of the local untyped zero-size
/// symbols strictly inside it.
void addSymbolEntries(ArrayRef<SymbolInfo> Syms,
                      std::vector<BoltFunction> &Functions) {
  for (const SymbolInfo &S : Syms) {
    if (!S.IsLocal || !S.IsUntyped || S.Size || !S.InCode ||
        isMappingSymbol(S.Name))
      continue;
    auto It = llvm::upper_bound(
        Functions, S.Address,
        [](uint64_t A, const BoltFunction &F) { return A < F.Address; });
    if (It == Functions.begin())
      continue;
    BoltFunction &F = *std::prev(It);
    if (S.Address > F.Address && S.Address < F.Address + F.Size && !F.IsPseudo)
      F.SymbolEntries.push_back(S.Address - F.Address);
  }
}

/// An untyped symbol of a code section (assembly without `.type
/// @function`) starts a function, as discoverFileObjects() takes it, unless
/// it lies inside the function before it, or follows one without a size in
/// its section as a local label (isSymbolValidInScope()).
bool startsUntypedFunction(const SymbolInfo &S, const BoltFunction *Prev) {
  if (!S.IsUntyped || !S.InCode || isMappingSymbol(S.Name))
    return false;
  if (!Prev)
    return true;
  if (S.Address >= Prev->Address && S.Address - Prev->Address < Prev->Size)
    return false;
  return !(Prev->Size == 0 && S.IsLocal && S.SectionEnd == Prev->End);
}

/// The size BOLT gives a function at \p Address whose symbol has \p Size:
/// at least the range of an FDE starting there.
uint64_t sizeWithFrame(ArrayRef<FrameRange> Frames, uint64_t Address,
                       uint64_t Size) {
  auto It = llvm::partition_point(
      Frames, [&](const FrameRange &F) { return F.Start <= Address; });
  if (It != Frames.begin() && std::prev(It)->Start == Address)
    Size = std::max(Size, std::prev(It)->Size);
  return Size;
}

/// Adds a function per STT_FUNC address of a code section, and per
/// untyped symbol BOLT takes for one, with BOLT's names; aliases keep the
/// first symbol's names. A function's size covers its FDE, as BOLT sizes it
/// before it looks at the next symbol.
void addSymbolFunctions(ArrayRef<SymbolInfo> Syms, ArrayRef<FrameRange> Frames,
                        std::vector<BoltFunction> &Functions) {
  NameCounter Names;
  for (const SymbolInfo &S : Syms) {
    std::string Name =
        S.Name.starts_with(".L") ? ("PG" + S.Name).str() : S.Name.str();
    std::string AltName;
    if (S.IsLocal) {
      if (S.IsFunction && !S.FileName.empty())
        AltName = Names.uniquify((Name + "/" + S.FileName).str());
      Name = Names.uniquify(Name);
    }
    const BoltFunction *Prev = Functions.empty() ? nullptr : &Functions.back();
    if (!S.startsFunction() && !startsUntypedFunction(S, Prev))
      continue;
    if (!Functions.empty() && Functions.back().Address == S.Address) {
      BoltFunction &F = Functions.back();
      if (F.BATName == F.Name && !AltName.empty())
        F.BATName = AltName;
      continue;
    }
    BoltFunction &F = Functions.emplace_back();
    F.Address = S.Address;
    F.Size = sizeWithFrame(Frames, S.Address, S.Size);
    F.End = S.SectionEnd;
    F.Name = Name;
    F.BATName = AltName.empty() ? Name : AltName;
  }
}

std::vector<ELFPltEntry> pltEntries(const ELFObjectFileBase &Obj,
                                    const MCSubtargetInfo &STI) {
#if LLVM_VERSION_MAJOR >= 20
  return Obj.getPltEntries(STI);
#else
  (void)STI;
  return Obj.getPltEntries();
#endif
}

/// The end of the code section holding \p Address; none in a PLT section.
std::optional<uint64_t> codeSectionEnd(const ELFObjectFileBase &Obj,
                                       uint64_t Address) {
  for (const SectionRef &S : Obj.sections()) {
    if (!S.isText() || Address < S.getAddress() ||
        Address - S.getAddress() >= S.getSize())
      continue;
    Expected<StringRef> Name = S.getName();
    bool PLT = Name && isPLTSection(*Name);
    // Warned of by checkSectionNames.
    consumeError(Name.takeError());
    if (PLT)
      return std::nullopt;
    return S.getAddress() + S.getSize();
  }
  return std::nullopt;
}

/// The bounds of the section named \p Name.
std::optional<std::pair<uint64_t, uint64_t>>
sectionBounds(const ELFObjectFileBase &Obj, StringRef Name) {
  for (const SectionRef &S : Obj.sections()) {
    Expected<StringRef> N = S.getName();
    if (N && *N == Name)
      return std::make_pair(S.getAddress(), S.getAddress() + S.getSize());
    // Warned of by checkSectionNames.
    consumeError(N.takeError());
  }
  return std::nullopt;
}

/// Adds `<sym>@PLT` for every PLT entry with a symbol and the pseudo
/// function of the .plt header, in the order BOLT creates them: the .plt
/// entries, its header, then the entries of the other PLT sections.
void addPLTFunctions(const ELFObjectFileBase &Obj, const MCSubtargetInfo &STI,
                     std::vector<BoltFunction> &Functions,
                     WarningList &Warnings) {
  std::vector<ELFPltEntry> Entries = pltEntries(Obj, STI);
  std::stable_partition(
      Entries.begin(), Entries.end(),
      [](const ELFPltEntry &E) { return E.Section == ".plt"; });
  std::optional<uint64_t> FirstPLTEntry;
  std::optional<std::pair<uint64_t, uint64_t>> PLT = sectionBounds(Obj, ".plt");
  auto AddHeader = [&] {
    if (!PLT || PLT->first == FirstPLTEntry.value_or(PLT->second))
      return;
    BoltFunction &F = Functions.emplace_back();
    F.Address = PLT->first;
    F.End = PLT->second;
    F.Name = F.BATName = "__BOLT_PSEUDO_.plt";
    F.IsPseudo = true;
  };
  bool HeaderAdded = false;
  for (const ELFPltEntry &E : Entries) {
    if (E.Section != ".plt" && !HeaderAdded) {
      AddHeader();
      HeaderAdded = true;
    }
    if (!E.Symbol)
      continue;
    Expected<StringRef> Name = SymbolRef(*E.Symbol, &Obj).getName();
    if (!Name) {
      warnSymbol(Warnings, ELFSymbolRef(SymbolRef(*E.Symbol, &Obj)), "name",
                 Name.takeError());
      continue;
    }
    std::optional<std::pair<uint64_t, uint64_t>> Sec =
        sectionBounds(Obj, E.Section);
    BoltFunction &F = Functions.emplace_back();
    F.Address = E.Address;
    F.End = Sec ? Sec->second : E.Address;
    F.Name = F.BATName = (*Name + "@PLT").str();
    F.IsPseudo = true;
    if (E.Section == ".plt")
      FirstPLTEntry = std::min(FirstPLTEntry.value_or(E.Address), E.Address);
  }
  if (!HeaderAdded)
    AddHeader();
}

/// Extends functions to their FDE's size, gives them its LSDA, and
/// returns BOLT's `__BOLT_FDE_FUNCat<hex>` for FDEs of code without a
/// function symbol.
std::vector<BoltFunction> frameFunctions(const ELFObjectFileBase &Obj,
                                         ArrayRef<FrameRange> Frames,
                                         std::vector<BoltFunction> &Functions) {
  std::vector<BoltFunction> Added;
  for (const FrameRange &Frame : Frames) {
    auto It = llvm::partition_point(Functions, [&](const BoltFunction &F) {
      return F.Address < Frame.Start;
    });
    if (It != Functions.end() && It->Address == Frame.Start) {
      It->Size = std::max(It->Size, Frame.Size);
      if (Frame.LSDAAddress)
        It->LSDAAddress = Frame.LSDAAddress;
      continue;
    }
    if (It != Functions.begin() &&
        Frame.Start < std::prev(It)->Address + std::prev(It)->Size)
      continue;
    std::optional<uint64_t> End = codeSectionEnd(Obj, Frame.Start);
    if (!End)
      continue;
    BoltFunction &F = Added.emplace_back();
    F.Address = Frame.Start;
    F.Size = Frame.Size;
    F.End = *End;
    F.LSDAAddress = Frame.LSDAAddress;
    F.Name = F.BATName =
        ("__BOLT_FDE_FUNCat" + Twine::utohexstr(Frame.Start)).str();
  }
  return Added;
}

/// Appends the functions of \p FromFrames that start outside the PLT
/// sections: BOLT makes the PLT's functions first, and an FDE there adds
/// none.
void addOutsidePLT(ArrayRef<BoltFunction> FromFrames,
                   std::vector<BoltFunction> &Functions) {
  std::vector<std::pair<uint64_t, uint64_t>> PLT;
  for (const BoltFunction &F : Functions)
    if (F.IsPseudo)
      PLT.emplace_back(F.Address, F.End);
  for (const BoltFunction &F : FromFrames)
    if (llvm::none_of(PLT, [&](const auto &P) {
          return F.Address >= P.first && F.Address < P.second;
        }))
      Functions.push_back(F);
}

/// The section the relocation section \p S applies to (section_end() for
/// another section); none, with a warning, if sh_info cannot be read.
std::optional<section_iterator> relocatedSection(const SectionRef &S,
                                                 WarningList &Warnings) {
  Expected<section_iterator> Target = S.getRelocatedSection();
  if (Target)
    return *Target;
  Warnings.add("relocated section",
               "unable to find the section that section [" +
                   Twine(S.getIndex()) + "] relocates",
               Target.takeError());
  return std::nullopt;
}

/// Whether \p Obj has a relocation section for an executable section.
bool hasCodeRelocations(const ELFObjectFileBase &Obj, WarningList &Warnings) {
  for (const SectionRef &S : Obj.sections()) {
    std::optional<section_iterator> Target = relocatedSection(S, Warnings);
    if (!Target)
      continue;
    if (*Target != Obj.section_end() && (*Target)->isText() &&
        !S.relocations().empty())
      return true;
  }
  return false;
}

/// An absolute relocation type of data: R_X86_64_64/32/32S,
/// R_AARCH64_ABS64/32.
bool isAbsoluteDataRelocation(const ELFObjectFileBase &Obj, uint64_t Type) {
  if (Obj.getArch() == Triple::aarch64)
    return Type == ELF::R_AARCH64_ABS64 || Type == ELF::R_AARCH64_ABS32;
  return Type == ELF::R_X86_64_64 || Type == ELF::R_X86_64_32 ||
         Type == ELF::R_X86_64_32S;
}

/// The code addresses (symbol + addend) that absolute relocations of
/// allocated data sections refer to, ascending: what BOLT registers as
/// externally referenced offsets of functions.
std::vector<uint64_t> codeReferencesOfData(const ELFObjectFileBase &Obj,
                                           WarningList &Warnings) {
  std::vector<uint64_t> Refs;
  for (const SectionRef &S : Obj.sections()) {
    std::optional<section_iterator> Target = relocatedSection(S, Warnings);
    if (!Target)
      continue;
    if (*Target == Obj.section_end() || (*Target)->isText() ||
        !(ELFSectionRef(**Target).getFlags() & ELF::SHF_ALLOC))
      continue;
    for (const RelocationRef &R : S.relocations()) {
      if (!isAbsoluteDataRelocation(Obj, R.getType()))
        continue;
      Expected<int64_t> Addend = ELFRelocationRef(R).getAddend();
      if (!Addend) {
        Warnings.add("relocation addend",
                     "unable to read the addend of a relocation of section "
                     "[" +
                         Twine(S.getIndex()) + "]",
                     Addend.takeError());
        continue;
      }
      Expected<uint64_t> Value = R.getSymbol()->getValue();
      if (!Value) {
        warnSymbol(Warnings, ELFSymbolRef(*R.getSymbol()), "value",
                   Value.takeError());
        continue;
      }
      Refs.push_back(*Value + *Addend);
    }
  }
  llvm::sort(Refs);
  Refs.erase(std::unique(Refs.begin(), Refs.end()), Refs.end());
  return Refs;
}

/// Gives \p Functions, in the order BOLT creates them, BOLT's numbers. A
/// symbol at a PLT function's address (the `.plt` section symbol of a
/// binary linked with relocations) is no function of BOLT's: it gets none.
void numberFunctions(std::vector<BoltFunction> &Functions) {
  std::set<uint64_t> PLTAddresses;
  for (const BoltFunction &F : Functions)
    if (F.IsPseudo)
      PLTAddresses.insert(F.Address);
  uint32_t Number = 0;
  for (BoltFunction &F : Functions)
    if (F.IsPseudo || !PLTAddresses.count(F.Address))
      F.Number = ++Number;
}

/// Sorts \p Functions and ends each at the next one's start.
void closeExtents(std::vector<BoltFunction> &Functions) {
  llvm::stable_sort(Functions,
                    [](const BoltFunction &A, const BoltFunction &B) {
                      return A.Address < B.Address;
                    });
  for (size_t I = 0; I + 1 < Functions.size(); ++I)
    Functions[I].End = std::min(Functions[I].End, Functions[I + 1].Address);
  for (BoltFunction &F : Functions) {
    F.End = std::max(F.End, F.Address + F.Size);
    // BOLT gives a function without a symbol size all it covers.
    if (F.Size == 0 && !F.IsPseudo)
      F.Size = F.End - F.Address;
  }
}

/// The bytes of the code section at [\p Begin, \p End), or none.
std::optional<StringRef> codeBytes(const ELFObjectFileBase &Obj, uint64_t Begin,
                                   uint64_t End, WarningList &Warnings) {
  for (const SectionRef &S : Obj.sections()) {
    if (!S.isText() || Begin < S.getAddress() ||
        End > S.getAddress() + S.getSize())
      continue;
    Expected<StringRef> Contents = S.getContents();
    if (!Contents) {
      Warnings.add("section contents",
                   "unable to read the contents of section [" +
                       Twine(S.getIndex()) + "]",
                   Contents.takeError());
      return std::nullopt;
    }
    return Contents->slice(Begin - S.getAddress(), End - S.getAddress());
  }
  return std::nullopt;
}

/// Whether \p Bytes at \p Address, from a function's symbol size to the
/// end of what it covers, are padding to BOLT (x86-64
/// BinaryContext::hasValidCodePadding()): all int3, or else nops, zero
/// bytes and jumps forward within them, in any order.
bool isPadding(const InstructionDecoder &Decoder, StringRef Bytes,
               uint64_t Address) {
  size_t Offset = Bytes.find_first_not_of('\xcc');
  if (Offset == StringRef::npos)
    return true;
  uint64_t End = Address + Bytes.size();
  auto Skip = [&](auto IsPadding) {
    size_t Start = Offset;
    while (Offset < Bytes.size()) {
      std::optional<Instruction> I = Decoder.decode(Address + Offset);
      if (!I || I->end() > End || !IsPadding(*I))
        break;
      Offset += I->Size;
    }
    return Offset != Start;
  };
  auto IsNop = [](const Instruction &I) { return I.Kind == InstrKind::Nop; };
  auto IsSkipJump = [&](const Instruction &I) {
    return I.Kind == InstrKind::UncondBranch && I.Target &&
           *I.Target >= I.end() && *I.Target <= End;
  };
  auto SkipZeros = [&] {
    size_t Start = Offset;
    while (Offset < Bytes.size() && Bytes[Offset] == 0)
      ++Offset;
    return Offset != Start;
  };
  while (Skip(IsNop) || Skip(IsSkipJump) || SkipZeros())
    ;
  return Offset == Bytes.size();
}

/// Without relocations, BOLT ends a function at its symbol size when what
/// follows up to the next function is no padding
/// (BinaryContext::adjustCodePadding()): the old code of functions BOLT
/// moved, in `.bolt.org.text`, belongs to no function. (BOLT checks only
/// the functions it processes, those a record falls in: the same ones
/// for the records.) x86-64 only.
void trimInvalidPadding(const ELFObjectFileBase &Obj,
                        const InstructionDecoder &Decoder,
                        std::vector<BoltFunction> &Functions,
                        WarningList &Warnings) {
  for (BoltFunction &F : Functions) {
    uint64_t CodeEnd = F.Address + F.Size;
    if (F.IsPseudo || F.End <= CodeEnd)
      continue;
    std::optional<StringRef> Bytes = codeBytes(Obj, CodeEnd, F.End, Warnings);
    if (Bytes && !isPadding(Decoder, *Bytes, CodeEnd))
      F.End = CodeEnd;
  }
}

} // namespace

BoltFunctionTable BoltFunctionTable::build(const ELFObjectFileBase &Obj,
                                           const InstructionDecoder &Decoder,
                                           unsigned Threads) {
  BoltFunctionTable T;
  checkSectionNames(Obj, T.Warnings);
  std::vector<SymbolInfo> Syms;
  std::vector<FrameRange> Frames;
  // Each task keeps its own warnings, added in one order after both.
  WarningList FrameWarnings, SymbolWarnings;
  runBoth(
      Threads, [&] { Frames = frameRanges(Obj, FrameWarnings); },
      [&] { Syms = readSymbols(Obj, SymbolWarnings); });
  T.Warnings.append(FrameWarnings);
  T.Warnings.append(SymbolWarnings);
  addSymbolFunctions(Syms, Frames, T.Functions);
  std::vector<BoltFunction> FromFrames =
      frameFunctions(Obj, Frames, T.Functions);
  addPLTFunctions(Obj, Decoder.subtargetInfo(), T.Functions, T.Warnings);
  addOutsidePLT(FromFrames, T.Functions);
  numberFunctions(T.Functions);
  T.HasRelocations = hasCodeRelocations(Obj, T.Warnings);
  if (T.HasRelocations)
    T.DataReferences = codeReferencesOfData(Obj, T.Warnings);
  closeExtents(T.Functions);
  if (!T.HasRelocations && !Decoder.isAArch64())
    trimInvalidPadding(Obj, Decoder, T.Functions, T.Warnings);
  addSymbolEntries(Syms, T.Functions);
  return T;
}

const BoltFunction *BoltFunctionTable::containing(uint64_t Address) const {
  auto It = llvm::partition_point(
      Functions, [&](const BoltFunction &F) { return F.Address <= Address; });
  if (It == Functions.begin())
    return nullptr;
  const BoltFunction &F = *std::prev(It);
  return F.contains(Address) ? &F : nullptr;
}

} // namespace bbmap
