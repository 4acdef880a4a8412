//===- FdataWriter.cpp - BOLT fdata from an address-level profile ---------===//
//
// Follows perf2bolt's DataAggregator: each trace is split into its taken
// branch (dropped when its source is a return) and its fall-through run;
// branches are charged per function as intra-function branches, calls
// (with entry data in the callee) or branches to and from unknown code;
// runs become the fall-through edges of BOLT's blocks (BoltFunctionView)
// or, in functions BOLT moved, of the BAT table's block entries. Counts
// of equal (from, to) pairs are summed. The file lists functions by
// primary name, each with its branches, then the entries from unknown
// code (samples in no_lbr mode).
//
// Header order: BOLT writes `boltedcollection` before `no_lbr` even though
// its own fdata reader expects `no_lbr` first; that order is reproduced.
//
//===----------------------------------------------------------------------===//

#include "bbmap/Profile/FdataWriter.h"
#include "bbmap/Profile/BoltFunctionTable.h"
#include "bbmap/Profile/BoltFunctionView.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"
#include <map>
#include <string>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

using namespace llvm;

namespace bbmap {

namespace {

/// A location as fdata writes it: known (in a BOLT function) or not, the
/// function's name and the offset.
using Location = std::tuple<bool, std::string, uint64_t>;

struct Counts {
  uint64_t Mispreds = 0;
  uint64_t Count = 0;

  void add(uint64_t C, uint64_t M) {
    Count += C;
    Mispreds += M;
  }
};

/// What fdata holds for one function.
struct FunctionData {
  /// The name written in its lines.
  std::string Name;
  /// (source offset, target) -> counts.
  std::map<std::pair<uint64_t, Location>, Counts> Branches;
  /// (unknown source, target offset) -> counts.
  std::map<std::pair<Location, uint64_t>, Counts> Entries;
  /// Offset -> samples.
  std::map<uint64_t, uint64_t> Samples;
};

/// One end of a branch after BOLT's handleAddress(): the function (the
/// parent of a cold fragment) and the (translated) offset.
struct BranchEnd {
  const BoltFunction *Function = nullptr;
  uint64_t Offset = 0;
};

class FdataBuilder {
public:
  FdataBuilder(const MappedBinary &Binary, const InstructionDecoder &Decoder,
               const FdataOptions &Options);

  void addTrace(const Trace &T);
  void addSample(const Sample &S);
  void markReturnSource(uint64_t Address) { ReturnSources.insert(Address); }
  void write(ArrayRef<std::string> Events, raw_ostream &OS) const;

  FdataStats Stats;

private:
  bool isBAT() const { return Binary.translator() != nullptr; }
  bool isReturn(const Trace &T);
  const BoltFunction *parentOf(const BoltFunction &F) const;
  FunctionData &dataOf(const BoltFunction &F);
  Location locationOf(const BranchEnd &E) const;
  BranchEnd handleAddress(uint64_t Address, bool IsFrom) const;
  void doBranch(uint64_t From, uint64_t To, uint64_t Count, uint64_t Mispreds);
  void doTrace(const Trace &T, bool IsReturn);
  std::optional<FallthroughList>
  blockFallthroughs(const BoltFunction &F, const Trace &T, bool IsReturn);
  std::optional<FallthroughList>
  batFallthroughs(uint64_t FunctionAddress, uint64_t From, uint64_t To) const;
  const BoltFunctionView *viewOf(const BoltFunction &F);
  void writeFunction(const FunctionData &D, raw_ostream &OS) const;

  const MappedBinary &Binary;
  const InstructionDecoder &Decoder;
  FdataOptions Options;
  BoltFunctionTable Functions;
  /// All map block starts, ascending.
  std::vector<MapBlockStart> MapBlocks;
  /// Keyed by addresses from the binary and the profile, any of which can
  /// be one of DenseMap's reserved keys: standard containers.
  std::unordered_map<uint64_t, std::optional<BoltFunctionView>> Views;
  std::unordered_set<uint64_t> ReturnSources;
  /// By primary name, the order of the file.
  std::map<std::string, FunctionData> Data;
};

std::vector<MapBlockStart> collectMapBlocks(const MappedBinary &Binary) {
  std::vector<MapBlockStart> Starts;
  for (const DecodedSection &Sec : Binary.sections())
    for (const FunctionMap &F : Sec.Functions)
      for (const BlockRange &R : F.Ranges)
        for (const BlockEntry &B : R.Blocks)
          Starts.push_back({R.BaseAddress + B.Offset, B.Metadata});
  llvm::sort(Starts, [](const MapBlockStart &A, const MapBlockStart &B) {
    return A.Address < B.Address;
  });
  return Starts;
}

FdataBuilder::FdataBuilder(const MappedBinary &Binary,
                           const InstructionDecoder &Decoder,
                           const FdataOptions &Options)
    : Binary(Binary), Decoder(Decoder), Options(Options),
      Functions(
          BoltFunctionTable::build(Binary.object(), Decoder.subtargetInfo())),
      MapBlocks(collectMapBlocks(Binary)) {}

const BoltFunction *FdataBuilder::parentOf(const BoltFunction &F) const {
  if (!isBAT())
    return &F;
  std::optional<uint64_t> Parent = Binary.translator()->parentOf(F.Address);
  if (!Parent)
    return &F;
  return Functions.containing(*Parent);
}

FunctionData &FdataBuilder::dataOf(const BoltFunction &F) {
  FunctionData &D = Data[F.Name];
  if (D.Name.empty())
    D.Name = isBAT() ? F.BATName : F.Name;
  return D;
}

Location FdataBuilder::locationOf(const BranchEnd &E) const {
  if (!E.Function)
    return {false, "[unknown]", E.Offset};
  return {true, isBAT() ? E.Function->BATName : E.Function->Name, E.Offset};
}

bool FdataBuilder::isReturn(const Trace &T) {
  // perf2bolt 16 reads B, F and f records only and keeps every branch.
  if (Options.Dialect == FdataDialect::Bolt16)
    return false;
  switch (T.Kind) {
  case TraceKind::ExternalReturn:
  case TraceKind::Return:
    return true;
  case TraceKind::Fallthrough:
  case TraceKind::ExternalOrigin:
    return false;
  default:
    break;
  }
  if (ReturnSources.count(T.From))
    return true;
  const BoltFunction *F = Functions.containing(T.From);
  if (!F)
    return false;
  // BOLT looks at the instruction starting there in a disassembled
  // function, and decodes the bytes at the address in the others.
  if (const BoltFunctionView *View = viewOf(*F)) {
    const Instruction *I = View->instructionAt(T.From - F->Address);
    return I && I->Kind == InstrKind::Return;
  }
  std::optional<Instruction> I = Decoder.decode(T.From);
  return I && I->Kind == InstrKind::Return;
}

BranchEnd FdataBuilder::handleAddress(uint64_t Address, bool IsFrom) const {
  const BoltFunction *F = Functions.containing(Address);
  if (!F)
    return {nullptr,
            Options.Dialect == FdataDialect::Bolt19 ? Address : uint64_t(0)};
  uint64_t Offset = Address - F->Address;
  if (isBAT())
    Offset = Binary.translator()->translate(F->Address, Offset, IsFrom);
  return {parentOf(*F), Offset};
}

void FdataBuilder::doBranch(uint64_t From, uint64_t To, uint64_t Count,
                            uint64_t Mispreds) {
  BranchEnd Src = handleAddress(From, /*IsFrom=*/true);
  BranchEnd Dst = handleAddress(To, /*IsFrom=*/false);
  if (!Src.Function && !Dst.Function) {
    Stats.UnknownBranches += Count;
    return;
  }
  Location Target = locationOf(Dst);
  if (Src.Function)
    dataOf(*Src.Function).Branches[{Src.Offset, Target}].add(Count, Mispreds);
  bool Intra = Src.Function == Dst.Function && Dst.Offset != 0;
  if (Dst.Function && !Intra)
    dataOf(*Dst.Function)
        .Entries[{locationOf(Src), Dst.Offset}]
        .add(Count, Mispreds);
}

const BoltFunctionView *FdataBuilder::viewOf(const BoltFunction &F) {
  auto [It, Inserted] = Views.try_emplace(F.Address);
  if (Inserted) {
    auto Begin = llvm::partition_point(MapBlocks, [&](const MapBlockStart &B) {
      return B.Address < F.Address;
    });
    auto End = std::find_if(Begin, MapBlocks.end(), [&](const auto &B) {
      return B.Address >= F.Address + F.Size;
    });
    size_t First = Begin - MapBlocks.begin();
    It->second = BoltFunctionView::build(
        F, Decoder, ArrayRef(MapBlocks).slice(First, End - Begin));
  }
  return It->second ? &*It->second : nullptr;
}

std::optional<FallthroughList>
FdataBuilder::blockFallthroughs(const BoltFunction &F, const Trace &T,
                                bool IsReturn) {
  uint64_t From = T.To - F.Address, To = T.FallthroughEnd - F.Address;
  if (From > To)
    return std::nullopt;
  if (F.IsPseudo)
    return FallthroughList();
  const BoltFunctionView *View = viewOf(F);
  if (!View)
    return std::nullopt;
  TraceOrigin Origin = TraceOrigin::Outside;
  if (T.Kind == TraceKind::Fallthrough)
    Origin = TraceOrigin::FallthroughOnly;
  else if (T.hasBranch() && !(T.Kind == TraceKind::Return && T.From == 0) &&
           T.From >= F.Address && T.From - F.Address < F.Size)
    Origin = TraceOrigin::Inside;
  return View->fallthroughs(From, To, Origin, IsReturn);
}

std::optional<FallthroughList>
FdataBuilder::batFallthroughs(uint64_t FunctionAddress, uint64_t From,
                              uint64_t To) const {
  FallthroughList Edges;
  if (From >= To)
    return Edges;
  const BATFunction *Table = Binary.translator()->tableAt(FunctionAddress);
  std::vector<const BATEntry *> Entries =
      boltOrder(*Table, Binary.bat()->Format);
  auto UpperBound = [&](uint64_t Offset) {
    return size_t(llvm::partition_point(Entries,
                                        [&](const BATEntry *E) {
                                          return E->OutputOffset <= Offset;
                                        }) -
                  Entries.begin());
  };
  size_t Begin = UpperBound(From - FunctionAddress);
  do {
    if (Begin == 0)
      return Edges;
    --Begin;
  } while (Entries[Begin]->IsBranch);
  size_t Last = UpperBound(To - FunctionAddress);
  if (Last == 0)
    return Edges;
  --Last;
  if (Entries[Begin]->OutputOffset >= Entries[Last]->OutputOffset)
    return Edges;
  for (size_t I = Begin; I != Last;) {
    const BATEntry *Src = Entries[I];
    if (Src->IsBranch) {
      ++I;
      continue;
    }
    ++I;
    while (Entries[I]->IsBranch && I != Last)
      ++I;
    if (Entries[I]->IsBranch)
      break;
    Edges.emplace_back(Src->InputOffset, Entries[I]->InputOffset);
  }
  return Edges;
}

void FdataBuilder::doTrace(const Trace &T, bool IsReturn) {
  Stats.Traces += T.Count;
  const BoltFunction *F = Functions.containing(T.To);
  const BoltFunction *ToF = Functions.containing(T.FallthroughEnd);
  if (!F || !ToF) {
    Stats.OutOfRangeTraces += T.Count;
    return;
  }
  if (F != ToF) {
    Stats.InvalidTraces += T.Count;
    return;
  }
  std::optional<FallthroughList> Edges =
      isBAT() && Binary.translator()->tableAt(F->Address)
          ? batFallthroughs(F->Address, T.To - IsReturn, T.FallthroughEnd)
          : blockFallthroughs(*F, T, IsReturn);
  if (!Edges) {
    Stats.InvalidTraces += T.Count;
    return;
  }
  const BoltFunction *Parent = parentOf(*F);
  FunctionData &D = dataOf(*Parent);
  for (const auto &[From, To] : *Edges)
    D.Branches[{From, locationOf({Parent, To})}].add(T.Count, 0);
}

void FdataBuilder::addTrace(const Trace &T) {
  bool IsReturn = isReturn(T);
  if (IsReturn && T.hasBranch())
    Stats.Returns += T.Count;
  if (!IsReturn && T.hasBranch())
    doBranch(T.From, T.To, T.Count, T.Mispreds);
  if (T.hasFallthrough())
    doTrace(T, IsReturn);
}

void FdataBuilder::addSample(const Sample &S) {
  const BoltFunction *F = Functions.containing(S.Address);
  if (!F) {
    Stats.OutOfRangeSamples += S.Count;
    return;
  }
  // BOLT takes the offset from the parent of a cold fragment and looks it
  // up in the parent's table (a BOLT quirk, reproduced).
  const BoltFunction *Parent = parentOf(*F);
  uint64_t Offset = S.Address - Parent->Address;
  if (isBAT())
    Offset = Binary.translator()->translate(Parent->Address, Offset, false);
  dataOf(*Parent).Samples[Offset] += S.Count;
}

/// BOLT's getEscapedName: a backslash before each space and backslash.
void writeName(StringRef Name, raw_ostream &OS) {
  for (char C : Name) {
    if (C == ' ' || C == '\\')
      OS << '\\';
    OS << C;
  }
}

void writeLocation(const Location &L, raw_ostream &OS) {
  OS << (std::get<0>(L) ? "1 " : "0 ");
  writeName(std::get<1>(L), OS);
  OS << ' ' << Twine::utohexstr(std::get<2>(L)) << ' ';
}

void FdataBuilder::writeFunction(const FunctionData &D, raw_ostream &OS) const {
  Location Self{true, D.Name, 0};
  for (const auto &[Key, C] : D.Branches) {
    std::get<2>(Self) = Key.first;
    writeLocation(Self, OS);
    writeLocation(Key.second, OS);
    OS << C.Mispreds << ' ' << C.Count << '\n';
  }
  for (const auto &[Key, C] : D.Entries) {
    if (std::get<0>(Key.first))
      continue;
    std::get<2>(Self) = Key.second;
    writeLocation(Key.first, OS);
    writeLocation(Self, OS);
    OS << C.Mispreds << ' ' << C.Count << '\n';
  }
  for (const auto &[Offset, Count] : D.Samples) {
    std::get<2>(Self) = Offset;
    writeLocation(Self, OS);
    OS << Count << '\n';
  }
}

void FdataBuilder::write(ArrayRef<std::string> Events, raw_ostream &OS) const {
  if (isBAT())
    OS << "boltedcollection\n";
  if (Options.BasicSamples) {
    OS << "no_lbr";
    StringSet<> Seen;
    for (const std::string &E : Events)
      if (Seen.insert(E).second)
        OS << ' ' << E << (Options.PerfEventNames ? ":" : "");
    OS << '\n';
  }
  for (const auto &Entry : Data)
    writeFunction(Entry.second, OS);
}

} // namespace

Expected<FdataStats> writeFdata(const BranchProfile &Profile,
                                const MappedBinary &Binary,
                                const InstructionDecoder &Decoder,
                                const FdataOptions &Options, raw_ostream &OS) {
  FdataBuilder Builder(Binary, Decoder, Options);
  if (Options.BasicSamples) {
    for (const Sample &S : Profile.Samples)
      Builder.addSample(S);
  } else {
    for (const Trace &T : Profile.Traces)
      if (T.Kind == TraceKind::Return && T.From != 0)
        Builder.markReturnSource(T.From);
    for (const Trace &T : Profile.Traces)
      Builder.addTrace(T);
  }
  Builder.write(Profile.Events, OS);
  return Builder.Stats;
}

} // namespace bbmap
