//===- BoltRecords.cpp - perf2bolt's records of a profile -----------------===//
//
// Follows perf2bolt's DataAggregator (doBranch, doTrace, doBasicSample) and
// the fall-through rules of getFallthroughsInTrace() and, for BOLTed
// binaries, BoltAddressTranslation::getFallthroughsInTrace().
//
//===----------------------------------------------------------------------===//

#include "bbmap/BoltProfile/BoltRecords.h"
#include "bbmap/BoltProfile/BoltLandingPads.h"
#include "bbmap/Support/Parallel.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Endian.h"

using namespace llvm;
using namespace llvm::object;

namespace bbmap {

BoltRecordAggregator::BoltRecordAggregator(const MappedBinary &Binary,
                                           const InstructionDecoder &Decoder,
                                           FdataDialect Dialect,
                                           unsigned Threads)
    : Binary(Binary), Decoder(Decoder), Dialect(Dialect), Threads(Threads),
      Functions(BoltFunctionTable::build(Binary.object(), Decoder, Threads)),
      MapBlocks(mapBlockStarts(Binary)), Warnings(Functions.warnings()) {}

const BoltFunction *
BoltRecordAggregator::parentOf(const BoltFunction &F) const {
  if (!isBAT())
    return &F;
  std::optional<uint64_t> Parent = Binary.translator()->parentOf(F.Address);
  if (!Parent)
    return &F;
  return Functions.containing(*Parent);
}

std::optional<uint64_t>
BoltRecordAggregator::readData(uint64_t Address, unsigned Size,
                               WarningList &Warnings) const {
  for (const SectionRef &S : Binary.object().sections()) {
    if (S.isVirtual() || Address < S.getAddress() ||
        Address + Size > S.getAddress() + S.getSize())
      continue;
    Expected<StringRef> Contents = S.getContents();
    if (!Contents) {
      Warnings.add("section contents",
                   "unable to read the contents of section [" +
                       Twine(S.getIndex()) + "]",
                   Contents.takeError());
      return std::nullopt;
    }
    const char *P = Contents->data() + (Address - S.getAddress());
    return Size == 4 ? support::endian::read32le(P)
                     : support::endian::read64le(P);
  }
  return std::nullopt;
}

BoltFunctionRecords &BoltRecordAggregator::dataOf(const BoltFunction &F) {
  BoltFunctionRecords *&Cached = RecordsOf[&F];
  if (Cached)
    return *Cached;
  BoltFunctionRecords &D = Data[F.Name];
  Cached = &D;
  if (D.Name.empty()) {
    D.Function = &F;
    D.Name = isBAT() ? F.BATName : F.Name;
  }
  return D;
}

BoltLocation BoltRecordAggregator::locationOf(const BranchEnd &E) const {
  if (!E.Function)
    return {false, "[unknown]", E.Offset};
  return {true, isBAT() ? E.Function->BATName : E.Function->Name, E.Offset};
}

bool BoltRecordAggregator::isReturn(const Trace &T) {
  // perf2bolt 16 reads B, F and f records only and keeps every branch.
  if (Dialect == FdataDialect::Bolt16)
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

BoltRecordAggregator::BranchEnd
BoltRecordAggregator::handleAddress(uint64_t Address, bool IsFrom) const {
  const BoltFunction *F = Functions.containing(Address);
  if (!F)
    return {nullptr, Dialect == FdataDialect::Bolt19 ? Address : uint64_t(0)};
  uint64_t Offset = Address - F->Address;
  if (isBAT())
    Offset = Binary.translator()->translate(F->Address, Offset, IsFrom);
  return {parentOf(*F), Offset};
}

void BoltRecordAggregator::doBranch(uint64_t From, uint64_t To, uint64_t Count,
                                    uint64_t Mispreds) {
  BranchEnd Src = handleAddress(From, /*IsFrom=*/true);
  BranchEnd Dst = handleAddress(To, /*IsFrom=*/false);
  if (!Src.Function && !Dst.Function) {
    Stats.UnknownBranches += Count;
    return;
  }
  BoltLocation Target = locationOf(Dst);
  if (Src.Function)
    dataOf(*Src.Function).Branches[{Src.Offset, Target}].add(Count, Mispreds);
  bool Intra = Src.Function == Dst.Function && Dst.Offset != 0;
  if (Dst.Function && !Intra)
    dataOf(*Dst.Function)
        .Entries[{locationOf(Src), Dst.Offset}]
        .add(Count, Mispreds);
}

ArrayRef<MapBlockStart>
BoltRecordAggregator::mapBlocksOf(const BoltFunction &F) const {
  auto Below = [&](uint64_t Address) {
    return llvm::partition_point(
               MapBlocks,
               [&](const MapBlockStart &B) { return B.Address < Address; }) -
           MapBlocks.begin();
  };
  size_t Begin = Below(F.Address), End = Below(F.Address + F.Size);
  return ArrayRef(MapBlocks).slice(Begin, End - Begin);
}

std::optional<BoltFunctionView>
BoltRecordAggregator::buildView(const BoltFunction &F,
                                WarningList &Warnings) const {
  auto Read = [&](uint64_t Address, unsigned Size) {
    return readData(Address, Size, Warnings);
  };
  BoltCodeContext Context;
  Context.StrictMode = Functions.hasRelocations();
  Context.DataReferences = Functions.dataReferences();
  Context.ReadData = Read;
  ArrayRef<MapBlockStart> MapBlocks = mapBlocksOf(F);
  // Without a map, BOLT's landing pads come from the LSDA; one that does not
  // decode gives none (BOLT would stop at it), and a warning.
  std::vector<uint64_t> LandingPads;
  if (MapBlocks.empty()) {
    Expected<std::vector<uint64_t>> Pads = readLandingPads(Binary.object(), F);
    if (Pads)
      LandingPads = std::move(*Pads);
    else
      Warnings.add("LSDA",
                   "unable to read the LSDA of " + F.Name +
                       " (its landing pads are left out)",
                   Pads.takeError());
  }
  Context.LandingPads = LandingPads;
  return BoltFunctionView::build(F, Decoder, MapBlocks, Context);
}

const BoltFunctionView *BoltRecordAggregator::viewOf(const BoltFunction &F) {
  auto [It, Inserted] = Views.try_emplace(F.Address);
  if (Inserted)
    It->second = buildView(F, Warnings);
  return It->second ? &*It->second : nullptr;
}

void BoltRecordAggregator::buildViews(const BranchProfile &Profile,
                                      bool BasicSamples) {
  // The functions whose code BOLT looks at: a branch's source (is it a
  // return?), a fall-through run's function, a sample's (its block's size).
  std::vector<const BoltFunction *> Needed;
  DenseSet<const BoltFunction *> Seen;
  auto Need = [&](uint64_t Address) {
    const BoltFunction *F = Functions.containing(Address);
    if (F && !Views.count(F->Address) && Seen.insert(F).second)
      Needed.push_back(F);
  };
  if (BasicSamples) {
    for (const Sample &S : Profile.Samples)
      Need(S.Address);
  } else {
    for (const Trace &T : Profile.Traces) {
      if (T.hasBranch())
        Need(T.From);
      if (T.hasFallthrough())
        Need(T.To);
    }
  }
  std::vector<uint64_t> Sizes;
  for (const BoltFunction *F : Needed)
    Sizes.push_back(F->Size);
  std::vector<std::optional<BoltFunctionView>> Built(Needed.size());
  // Each function's warnings apart, added in the order of Needed.
  std::vector<WarningList> BuiltWarnings(Needed.size());
  forEachInOrder(costliestFirst(Sizes), Threads, [&](uint32_t I) {
    Built[I] = buildView(*Needed[I], BuiltWarnings[I]);
  });
  for (size_t I = 0; I < Needed.size(); ++I) {
    Views.try_emplace(Needed[I]->Address, std::move(Built[I]));
    Warnings.append(BuiltWarnings[I]);
  }
}

std::optional<FallthroughList>
BoltRecordAggregator::blockFallthroughs(const BoltFunction &F, const Trace &T,
                                        bool IsReturn) {
  uint64_t From = T.To - F.Address, To = T.FallthroughEnd - F.Address;
  if (From > To)
    return std::nullopt;
  if (F.IsPseudo)
    return FallthroughList();
  const BoltFunctionView *View = viewOf(F);
  // BOLT 22 reads traces through any function with a CFG, BOLT 19
  // (getFallthroughsInTrace()) only through simple ones.
  if (!View || (Dialect == FdataDialect::Bolt19 && !View->isSimple()))
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
BoltRecordAggregator::batFallthroughs(uint64_t FunctionAddress, uint64_t From,
                                      uint64_t To) const {
  FallthroughList Edges;
  if (From >= To)
    return Edges;
  const BATFunction *Table = Binary.translator()->tableAt(FunctionAddress);
  if (!Table)
    return std::nullopt;
  // BOLT 19 pairs output offsets and translates them: of entries sharing
  // an offset (blocks BOLT emptied), it gives each the last one's input.
  auto Input = [&](const BATEntry *E) {
    if (Dialect != FdataDialect::Bolt19)
      return E->InputOffset;
    return Binary.translator()->translate(FunctionAddress, E->OutputOffset,
                                          /*IsBranchSource=*/false);
  };
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
    Edges.emplace_back(Input(Src), Input(Entries[I]));
  }
  return Edges;
}

void BoltRecordAggregator::doTrace(const Trace &T, bool IsReturn) {
  Stats.Traces += T.Count;
  const BoltFunction *F = Functions.containing(T.To);
  const BoltFunction *ToF = Functions.containing(T.FallthroughEnd);
  if (!F || !ToF) {
    Stats.OutOfRangeTraces += T.Count;
    return;
  }
  // BOLT 16 and 19 build no CFG for PLT entries and count the traces in
  // them as mismatching; BOLT 22 takes them as valid. Neither records a
  // fall-through there.
  if (F != ToF || (F->IsPseudo && Dialect != FdataDialect::Bolt22)) {
    Stats.InvalidTraces += T.Count;
    Stats.SpanningTraces += F != ToF ? T.Count : 0;
    return;
  }
  // Before BOLT looks for the run's blocks.
  ExecutedBytes[parentOf(*F)] += T.Count * (T.FallthroughEnd - T.To);
  // BOLT 19 takes every run of a BOLTed binary through BAT, where a
  // function without a table has none, and starts a run after a return
  // at the return address, not in the call's block.
  bool Bolt19 = Dialect == FdataDialect::Bolt19;
  bool ThroughBAT =
      isBAT() && (Bolt19 || Binary.translator()->tableAt(F->Address));
  uint64_t Start = T.To - (IsReturn && !Bolt19);
  std::optional<FallthroughList> Edges =
      ThroughBAT ? batFallthroughs(F->Address, Start, T.FallthroughEnd)
                 : blockFallthroughs(*F, T, IsReturn);
  if (!Edges) {
    Stats.InvalidTraces += T.Count;
    return;
  }
  const BoltFunction *Parent = parentOf(*F);
  BoltFunctionRecords &D = dataOf(*Parent);
  for (const auto &[From, To] : *Edges)
    D.Branches[{From, locationOf({Parent, To})}].add(T.Count, 0);
}

void BoltRecordAggregator::addTrace(const Trace &T) {
  bool IsReturn = isReturn(T);
  if (IsReturn && T.hasBranch())
    Stats.Returns += T.Count;
  if (!IsReturn && T.hasBranch())
    doBranch(T.From, T.To, T.Count, T.Mispreds);
  if (T.hasFallthrough())
    doTrace(T, IsReturn);
}

uint64_t BoltRecordAggregator::blockSizeAt(const BoltFunction &F,
                                           uint64_t Offset) {
  const BoltFunctionView *View = viewOf(F);
  std::optional<size_t> BB =
      View ? View->blockContaining(Offset) : std::nullopt;
  return BB ? View->blockEnd(*BB) - View->blocks()[*BB].Start : 0;
}

void BoltRecordAggregator::addSample(const Sample &S) {
  const BoltFunction *F = Functions.containing(S.Address);
  if (!F) {
    Stats.OutOfRangeSamples += S.Count;
    return;
  }
  // BOLT takes the offset from the parent of a cold fragment and looks it
  // up in the parent's table (a BOLT quirk, reproduced).
  const BoltFunction *Parent = parentOf(*F);
  ExecutedBytes[Parent] += S.Count * blockSizeAt(*F, S.Address - F->Address);
  uint64_t Offset = S.Address - Parent->Address;
  if (isBAT())
    Offset = Binary.translator()->translate(Parent->Address, Offset, false);
  dataOf(*Parent).Samples[Offset] += S.Count;
}

void BoltRecordAggregator::add(const BranchProfile &Profile,
                               bool BasicSamples) {
  if (BasicSamples) {
    buildViews(Profile, BasicSamples);
    for (const Sample &S : Profile.Samples)
      addSample(S);
    return;
  }
  for (const Trace &T : Profile.Traces)
    if (T.Kind == TraceKind::Return && T.From != 0)
      ReturnSources.insert(T.From);
  if (!isBAT())
    buildViews(Profile, BasicSamples);
  for (const Trace &T : Profile.Traces)
    addTrace(T);
}

} // namespace bbmap
