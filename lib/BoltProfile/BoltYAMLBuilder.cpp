//===- BoltYAMLBuilder.cpp - the YAML profile perf2bolt writes ------------===//
//
// perf2bolt writes its YAML right after attaching the profile to the CFG,
// before BinaryFunction::postProcessProfile(): a block's `exec` is only
// what recordEntry() gave entry blocks, edge counts are what
// DataReader::recordBranch() and getFallthroughsInTrace() added, call
// sites carry the counts convertBranchData() annotated. The listing rules
// (which functions and blocks appear) are YAMLProfileWriter::convert()'s.
// For IP samples perf2bolt writes no blocks; here each block gets its
// samples as `events`, which llvm-bolt's YAMLProfileReader turns into block
// counts as DataReader does for a no_lbr fdata file. A BOLTed binary's
// YAML is DataAggregator::writeBATYAML()'s.
//
//===----------------------------------------------------------------------===//

#include "bbmap/BoltProfile/BoltYAMLBuilder.h"
#include "bbmap/BoltProfile/BoltHash.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include <map>
#include <numeric>

using namespace llvm;

namespace bbmap {

namespace {

/// A call site and the callee name BOLT sorts call sites by.
using NamedCallSite = std::pair<std::string, boltyaml::CallSite>;

/// The records of one instruction that calls or leaves the function.
struct CallRecords {
  /// Direct calls and tail calls: the count ("Count", "CTCTakenCount") and
  /// the mispredictions of a conditional tail call ("CTCMispredCount").
  BoltCounts Direct;
  /// Indirect calls and jumps: one entry per record ("CallProfile").
  std::vector<NamedCallSite> Indirect;
};

/// One function's CFG with the profile attached.
class FunctionProfile {
public:
  FunctionProfile(const BoltFunctionView &View,
                  const BoltFunctionTable &Functions,
                  const StringMap<const BoltFunction *> &ByName)
      : View(View), Functions(Functions), ByName(ByName),
        ExecCounts(View.blocks().size()), Edges(View.blocks().size()) {
    for (size_t BB = 0; BB < View.blocks().size(); ++BB)
      Edges[BB].resize(View.blocks()[BB].Successors.size());
  }

  void addEntry(uint64_t To, uint64_t Count);
  void addBranch(const BoltFunctionRecords &R, uint64_t From,
                 const BoltLocation &To, const BoltCounts &C);
  std::vector<boltyaml::Block> blocks(ArrayRef<uint32_t> Order,
                                      ArrayRef<uint32_t> Index,
                                      ArrayRef<uint64_t> Hashes) const;

private:
  void recordBranch(uint64_t From, uint64_t To, const BoltCounts &C);
  BoltCounts &edge(size_t From, size_t To);
  std::vector<boltyaml::CallSite> callSites(size_t BB) const;
  bool isListed(size_t BB) const;

  const BoltFunctionView &View;
  const BoltFunctionTable &Functions;
  const StringMap<const BoltFunction *> &ByName;
  std::vector<uint64_t> ExecCounts;
  /// Per block, per successor.
  std::vector<std::vector<BoltCounts>> Edges;
  /// By instruction offset.
  std::map<uint64_t, CallRecords> Calls;
};

BoltCounts &FunctionProfile::edge(size_t From, size_t To) {
  // getBranchInfo(): the first successor that is To.
  const auto &Succs = View.blocks()[From].Successors;
  return Edges[From][llvm::find(Succs, To) - Succs.begin()];
}

void FunctionProfile::addEntry(uint64_t To, uint64_t Count) {
  if (To == 0 && !ExecCounts.empty())
    ExecCounts[0] += Count;
  // DataReader::readProfile(): an entry at a secondary entry point counts
  // for its block.
  std::optional<size_t> BB = View.blockContaining(To);
  if (To != 0 && BB && View.blocks()[*BB].IsEntryPoint)
    ExecCounts[*BB] += Count;
}

/// DataReader::recordBranch() for an input binary.
void FunctionProfile::recordBranch(uint64_t From, uint64_t To,
                                   const BoltCounts &C) {
  ArrayRef<BoltFunctionView::Block> Blocks = View.blocks();
  std::optional<size_t> FromBB = View.blockContaining(From);
  std::optional<size_t> ToBB = View.blockContaining(To);
  if (!FromBB || !ToBB || From == To || Blocks[*FromBB].Successors.empty())
    return;
  ArrayRef<Instruction> Instrs = View.instructions();
  const BoltFunctionView::Block &Dst = Blocks[*ToBB];
  // A target past the nops that open the block is the block.
  uint64_t Start = Dst.Start;
  for (size_t I = Dst.First; I <= Dst.Last && Instrs[I].Kind == InstrKind::Nop;
       ++I)
    Start = Instrs[I].end();
  if (To != Dst.Start && To != Start) {
    const Instruction &Last = Instrs[Dst.Last];
    if (To <= Last.Address || *ToBB + 1 == Blocks.size())
      return;
    // A target among the nops after the block is the next block.
    ++*ToBB;
  }
  const Instruction *FromInstr = View.instructionAt(From);
  if (!FromInstr)
    return;
  const auto &Succs = Blocks[*FromBB].Successors;
  if (!llvm::is_contained(Succs, *ToBB)) {
    bool IsCallLike = FromInstr->isCall() ||
                      FromInstr->Kind == InstrKind::IndirectBranch ||
                      View.isTailCall(*FromInstr);
    if (IsCallLike && *ToBB == 0)
      return;
    // A pass-through block: the fall-through successor of a two-way
    // branch whose only successor is the target.
    if (Succs.size() != 2)
      return;
    size_t Through = Succs[1];
    if (Blocks[Through].Successors.size() != 1 ||
        Blocks[Through].Successors[0] != *ToBB)
      return;
    edge(Through, *ToBB).add(C.Count, C.Count ? C.Mispreds : 0);
    ToBB = Through;
  }
  edge(*FromBB, *ToBB).add(C.Count, C.Count ? C.Mispreds : 0);
}

void FunctionProfile::addBranch(const BoltFunctionRecords &R, uint64_t From,
                                const BoltLocation &To, const BoltCounts &C) {
  const auto &[Known, Name, Offset] = To;
  if (Known && Name == R.Name && Offset != 0) {
    recordBranch(From, Offset, C);
    return;
  }
  // convertBranchData(): records leaving a call or an indirect jump.
  const Instruction *I = View.instructionAt(From);
  if (!I || !(I->isCall() || I->Kind == InstrKind::IndirectBranch ||
              View.isTailCall(*I)))
    return;
  CallRecords &CR = Calls[From];
  if (I->Kind != InstrKind::IndirectCall &&
      I->Kind != InstrKind::IndirectBranch) {
    CR.Direct.add(C.Count, I->Kind == InstrKind::CondBranch ? C.Mispreds : 0);
    return;
  }
  boltyaml::CallSite CS;
  CS.Count = C.Count;
  CS.Mispreds = C.Mispreds;
  std::string Callee;
  if (const BoltFunction *F = Known ? ByName.lookup(Name) : nullptr) {
    CS.CalleeId = F->Number;
    Callee = F->Name;
  }
  CR.Indirect.emplace_back(Callee, CS);
}

std::vector<boltyaml::CallSite> FunctionProfile::callSites(size_t BB) const {
  const BoltFunctionView::Block &B = View.blocks()[BB];
  std::vector<boltyaml::CallSite> Sites;
  for (size_t Index = B.First; Index <= B.Last; ++Index) {
    const Instruction &I = View.instructions()[Index];
    auto It = Calls.find(I.Address);
    if (It == Calls.end())
      continue;
    std::vector<NamedCallSite> Targets = It->second.Indirect;
    if (It->second.Direct.Count && I.Target) {
      NamedCallSite &T = Targets.emplace_back();
      T.second.Count = It->second.Direct.Count;
      T.second.Mispreds = It->second.Direct.Mispreds;
      const BoltFunction *Callee = Functions.containing(*I.Target);
      if (Callee) {
        T.first = Callee->Name;
        T.second.CalleeId = Callee->Number;
      }
    }
    for (NamedCallSite &T : Targets)
      T.second.Offset = I.Address - B.Start;
    llvm::stable_sort(Targets,
                      [](const NamedCallSite &A, const NamedCallSite &B) {
                        return A.first < B.first;
                      });
    for (NamedCallSite &T : Targets)
      Sites.push_back(T.second);
  }
  return Sites;
}

bool FunctionProfile::isListed(size_t BB) const {
  if (BB == 0 || View.blocks()[BB].IsEntryPoint || !callSites(BB).empty())
    return true;
  for (const BoltCounts &C : Edges[BB])
    if (C.Count)
      return true;
  for (uint32_t Pred : View.blocks()[BB].Predecessors) {
    const auto &Succs = View.blocks()[Pred].Successors;
    if (Edges[Pred][llvm::find(Succs, BB) - Succs.begin()].Count)
      return true;
  }
  return false;
}

std::vector<boltyaml::Block>
FunctionProfile::blocks(ArrayRef<uint32_t> Order, ArrayRef<uint32_t> Index,
                        ArrayRef<uint64_t> Hashes) const {
  std::vector<boltyaml::Block> Result;
  for (uint32_t BB : Order) {
    if (!isListed(BB))
      continue;
    const BoltFunctionView::Block &B = View.blocks()[BB];
    boltyaml::Block &YB = Result.emplace_back();
    YB.Index = Index[BB];
    YB.NumInstructions = B.numInstructions();
    YB.Hash = Hashes[BB];
    YB.ExecCount = ExecCounts[BB];
    YB.Calls = callSites(BB);
    for (size_t S = 0; S < B.Successors.size(); ++S) {
      boltyaml::Successor &Succ = YB.Successors.emplace_back();
      Succ.Index = Index[B.Successors[S]];
      Succ.Count = Edges[BB][S].Count;
      Succ.Mispreds = Edges[BB][S].Mispreds;
    }
  }
  return Result;
}

/// Block order and each block's `bid`: layout order, or DFS order with
/// unreached blocks keeping their layout index.
std::pair<std::vector<uint32_t>, std::vector<uint32_t>>
blockOrder(const BoltFunctionView &View, bool UseDFS) {
  std::vector<uint32_t> Index(View.blocks().size());
  std::iota(Index.begin(), Index.end(), 0);
  std::vector<uint32_t> Order = UseDFS ? View.dfs() : Index;
  for (size_t I = 0; I < Order.size(); ++I)
    Index[Order[I]] = I;
  return {Order, Index};
}

/// The blocks of a sample profile: each block's samples as `events`, as
/// DataReader::readSampleData() counts them for a no_lbr fdata file (the
/// samples from the block's start to the next block's), blocks without
/// samples left out.
std::vector<boltyaml::Block> sampleBlocks(const BoltFunctionView &View,
                                          const BoltFunctionRecords &R,
                                          ArrayRef<uint32_t> Order,
                                          ArrayRef<uint32_t> Index,
                                          ArrayRef<uint64_t> Hashes) {
  ArrayRef<BoltFunctionView::Block> Blocks = View.blocks();
  std::vector<boltyaml::Block> Result;
  for (uint32_t BB : Order) {
    uint64_t End = View.blockEnd(BB);
    uint64_t Samples = 0;
    for (auto It = R.Samples.lower_bound(Blocks[BB].Start);
         It != R.Samples.end() && It->first < End; ++It)
      Samples += It->second;
    if (!Samples)
      continue;
    boltyaml::Block &YB = Result.emplace_back();
    YB.Index = Index[BB];
    YB.NumInstructions = Blocks[BB].numInstructions();
    YB.Hash = Hashes[BB];
    YB.EventCount = Samples;
  }
  return Result;
}

class YAMLBuilder {
public:
  YAMLBuilder(const MappedBinary &Binary, const InstructionDecoder &Decoder,
              const BoltYAMLOptions &Options)
      : Binary(Binary), Options(Options),
        Records(Binary, Decoder, Options.Dialect, Options.Threads),
        Hasher(Binary.object(), Decoder, Records.functions()) {
    // Records name functions by BOLT's location names (BAT mode: the
    // `name/file/N` form).
    for (const BoltFunction &F : Records.functions().functions())
      ByName.try_emplace(Records.isBAT() ? F.BATName : F.Name, &F);
  }

  boltyaml::Profile build(const BranchProfile &Profile);
  boltyaml::Profile build(const BlockProfile &Blocks);
  /// What reading the binary's functions went past.
  WarningList warnings() const {
    WarningList W = Records.warnings();
    W.append(Hasher.warnings());
    return W;
  }
  FdataStats stats() {
    FdataStats Stats = Records.stats();
    Stats.Program =
        programStats(Records, Options.BasicSamples, Options.DensityCutoff,
                     Options.CountUnknownControlFlow);
    return Stats;
  }

private:
  boltyaml::Header header(const BranchProfile &Profile) const;
  BoltFunctionRecords recordsOf(const BlockProfile &Blocks,
                                const FunctionBlocks &F,
                                const BoltFunction &BF);
  boltyaml::Function function(const BoltFunctionRecords &R);
  const BATFunction *tableOf(const BoltFunction &F) const;
  boltyaml::Function batFunction(const BoltFunctionRecords &R,
                                 const BATFunction &Table) const;
  uint32_t entryDiscriminator(const BoltFunction &Callee,
                              uint64_t Offset) const;
  void addBATFunctions(boltyaml::Profile &P);

  const MappedBinary &Binary;
  BoltYAMLOptions Options;
  BoltRecordAggregator Records;
  BoltHasher Hasher;
  StringMap<const BoltFunction *> ByName;
};

boltyaml::Header YAMLBuilder::header(const BranchProfile &Profile) const {
  boltyaml::Header H;
  H.BinaryName = Binary.path();
  H.BuildID = Binary.buildID().empty() ? "<unknown>" : Binary.buildID();
  H.Flags =
      Options.BasicSamples ? boltyaml::ProfileSample : boltyaml::ProfileLBR;
  H.Origin = "perf data aggregator";
  // perf2bolt names the events of IP samples only: its aggregator does not
  // record the event of branch stacks. Its BAT writer also names those of
  // `E` records.
  bool Named =
      Options.BasicSamples || (Records.isBAT() && !Options.PerfEventNames);
  StringSet<> Seen;
  for (const std::string &E : Profile.Events)
    if (Named && Seen.insert(E).second)
      H.EventNames += (H.EventNames.empty() ? "" : ",") + E +
                      (Options.PerfEventNames ? ":" : "");
  H.IsDFSOrder = Options.UseDFS && !Records.isBAT();
  H.Hash = Options.Hash;
  return H;
}

boltyaml::Function YAMLBuilder::function(const BoltFunctionRecords &R) {
  boltyaml::Function YF;
  YF.Name = R.Name;
  YF.Id = R.Function->Number;
  for (const auto &[Key, C] : R.Entries)
    if (Key.second == 0)
      YF.ExecCount += C.Count;
  const BoltFunctionView *View =
      R.Function->IsPseudo ? nullptr : Records.viewOf(*R.Function);
  if (!View)
    return YF;
  BoltHashes Hashes = Hasher.hash(*View, Options.Hash, Options.UseDFS);
  YF.Hash = Hashes.Function;
  YF.NumBlocks = View->blocks().size();
  auto [Order, Index] = blockOrder(*View, Options.UseDFS);
  if (Options.BasicSamples) {
    if (Options.SampleEvents)
      YF.Blocks = sampleBlocks(*View, R, Order, Index, Hashes.Blocks);
    return YF;
  }
  FunctionProfile P(*View, Records.functions(), ByName);
  for (const auto &[Key, C] : R.Entries)
    P.addEntry(Key.second, C.Count);
  for (const auto &[Key, C] : R.Branches)
    P.addBranch(R, Key.first, Key.second, C);
  YF.Blocks = P.blocks(Order, Index, Hashes.Blocks);
  return YF;
}

boltyaml::Profile YAMLBuilder::build(const BranchProfile &Profile) {
  Records.add(Profile, Options.BasicSamples);
  boltyaml::Profile P;
  P.Head = header(Profile);
  if (Records.isBAT()) {
    addBATFunctions(P);
    return P;
  }
  std::vector<const BoltFunctionRecords *> Listed;
  for (const auto &Entry : Records.records())
    if (Entry.second.hasBranchData() || !Entry.second.Samples.empty())
      Listed.push_back(&Entry.second);
  // BOLT lists functions by address.
  llvm::sort(Listed,
             [](const BoltFunctionRecords *A, const BoltFunctionRecords *B) {
               return A->Function->Address < B->Function->Address;
             });
  for (const BoltFunctionRecords *R : Listed)
    P.Functions.push_back(function(*R));
  return P;
}

const BATFunction *YAMLBuilder::tableOf(const BoltFunction &F) const {
  return Binary.translator()->tableAt(F.Address);
}

/// BOLT's map of a moved function's input blocks (BBHashMapTy): input
/// offset -> block index and hash, from the block entries of the hot
/// fragment's record, then of its cold fragments' (the order BOLT reads
/// them in), the first entry at an offset kept.
using BATBlockMap = std::map<uint64_t, std::pair<uint32_t, uint64_t>>;

BATBlockMap batBlocks(const BATTable &BAT, const BATFunction &Table) {
  BATBlockMap Blocks;
  auto Add = [&](const BATFunction &F) {
    for (const BATEntry &E : F.Entries)
      if (!E.IsBranch)
        Blocks.try_emplace(E.InputOffset, uint32_t(E.BBIndex), E.BBHash);
  };
  Add(Table);
  for (const BATFunction &F : BAT.Functions)
    if (F.ParentAddress == Table.Address)
      Add(F);
  return Blocks;
}

/// The input block holding \p Offset: its offset and index.
std::optional<std::pair<uint64_t, uint32_t>> batBlockOf(const BATBlockMap &Map,
                                                        uint64_t Offset) {
  auto It = Map.upper_bound(Offset);
  if (It == Map.begin())
    return std::nullopt;
  --It;
  return std::make_pair(It->first, It->second.first);
}

bool hasCount(const boltyaml::Block &B) {
  auto Counted = [](const auto &E) { return E.Count != 0; };
  return B.ExecCount || any_of(B.Successors, Counted) ||
         any_of(B.Calls, Counted);
}

/// The entry point a call lands on (setCSIDestination()): 0 for the
/// primary entry, else one more than the secondary entry's index in a
/// moved callee's table.
uint32_t YAMLBuilder::entryDiscriminator(const BoltFunction &Callee,
                                         uint64_t Offset) const {
  const BATFunction *Table = tableOf(Callee);
  if (!Table || Offset == 0)
    return 0;
  auto It = llvm::find(Table->SecondaryEntryPoints, Offset);
  if (It == Table->SecondaryEntryPoints.end())
    return 0;
  return It - Table->SecondaryEntryPoints.begin() + 1;
}

/// A moved function as DataAggregator::writeBATYAML() writes it: the
/// input binary's function hash, block count, block indices and hashes
/// from the BAT table, the records charged to the input blocks holding
/// their offsets (successors and calls in the records' order), no
/// instruction counts. BOLT 22 leaves out blocks without counts.
boltyaml::Function YAMLBuilder::batFunction(const BoltFunctionRecords &R,
                                            const BATFunction &Table) const {
  boltyaml::Function YF;
  YF.Name = R.Name;
  YF.Id = R.Function->Number;
  YF.Hash = Table.Hash;
  YF.NumBlocks = Table.NumBlocks;
  BATBlockMap Map = batBlocks(*Binary.bat(), Table);
  // Positions follow the map's offsets, counts the block indices.
  std::vector<boltyaml::Block> Blocks(Table.NumBlocks);
  for (auto [Entry, B] : zip(Map, Blocks)) {
    B.Index = Entry.second.first;
    B.Hash = Entry.second.second;
  }
  for (const auto &[Key, C] : R.Branches) {
    auto From = batBlockOf(Map, Key.first);
    if (!From || From->second >= Blocks.size())
      continue;
    boltyaml::Block &B = Blocks[From->second];
    const auto &[Known, Name, Offset] = Key.second;
    if (Known && Name == R.Name && Offset != 0) {
      if (auto To = batBlockOf(Map, Offset))
        B.Successors.push_back({To->second, C.Count, C.Mispreds});
      continue;
    }
    boltyaml::CallSite &CS = B.Calls.emplace_back();
    CS.Offset = Key.first - From->first;
    CS.Count = C.Count;
    CS.Mispreds = C.Mispreds;
    if (const BoltFunction *Callee = Known ? ByName.lookup(Name) : nullptr) {
      CS.CalleeId = Callee->Number;
      CS.EntryDiscriminator = entryDiscriminator(*Callee, Offset);
    }
  }
  for (const auto &[Key, C] : R.Entries) {
    auto It = Map.find(Key.second);
    if (It != Map.end() && It->second.first < Blocks.size())
      Blocks[It->second.first].ExecCount += C.Count;
    if (Key.second == 0)
      YF.ExecCount += C.Count;
  }
  if (Options.Dialect != FdataDialect::Bolt19)
    llvm::erase_if(Blocks,
                   [](const boltyaml::Block &B) { return !hasCount(B); });
  YF.Blocks = std::move(Blocks);
  return YF;
}

/// writeBATYAML(): the functions BOLT did not move, by address, from their
/// code in the BOLTed binary; then the moved ones by first name (the order
/// of its NamesToBranches map, as of the records here). A profile of IP
/// samples lists none.
void YAMLBuilder::addBATFunctions(boltyaml::Profile &P) {
  if (Options.BasicSamples)
    return;
  std::vector<const BoltFunctionRecords *> Unmoved, Moved;
  for (const auto &Entry : Records.records())
    if (Entry.second.hasBranchData())
      (tableOf(*Entry.second.Function) ? Moved : Unmoved)
          .push_back(&Entry.second);
  llvm::sort(Unmoved,
             [](const BoltFunctionRecords *A, const BoltFunctionRecords *B) {
               return A->Function->Address < B->Function->Address;
             });
  for (const BoltFunctionRecords *R : Unmoved)
    P.Functions.push_back(function(*R));
  for (const BoltFunctionRecords *R : Moved)
    P.Functions.push_back(batFunction(*R, *tableOf(*R->Function)));
}

/// The records perf2bolt would have made of a run with \p Blocks' counts
/// in \p F: each map edge as a branch from the last instruction of its
/// source block (a fall-through is one too, as in fdata), the fall-through
/// into each BOLT block that starts inside a map block, the calls, and the
/// entries from outside.
BoltFunctionRecords YAMLBuilder::recordsOf(const BlockProfile &Blocks,
                                           const FunctionBlocks &F,
                                           const BoltFunction &BF) {
  const AddressIndex &Index = Binary.index();
  BoltFunctionRecords R;
  R.Function = &BF;
  R.Name = BF.Name;
  const BoltFunctionView *View = Records.viewOf(BF);
  if (!View)
    return R;
  ArrayRef<Instruction> Instrs = View->instructions();
  auto LastBefore = [&](uint64_t End) {
    auto It = partition_point(
        Instrs, [&](const Instruction &I) { return I.end() <= End; });
    return It == Instrs.begin() ? 0 : std::prev(It)->Address;
  };
  auto Branch = [&](uint64_t From, BoltLocation To, uint64_t Count) {
    if (Count)
      R.Branches[{From, To}].add(Count, 0);
  };
  uint64_t Entered = Blocks.Counts[F.Entries[entryPosition(F, Index)]];
  for (const auto &[Key, C] : functionEdges(Blocks, Index, F)) {
    uint64_t To = Index.blockStart(Key.second) - BF.Address;
    if (To == 0)
      Entered -= std::min(Entered, C.Count);
    Branch(LastBefore(Index.blockEnd(Key.first) - BF.Address),
           {true, BF.Name, To}, C.Count);
  }
  ArrayRef<BoltFunctionView::Block> Bolt = View->blocks();
  for (size_t K = 1; K < Bolt.size(); ++K) {
    uint32_t E = Index.find(BF.Address + Bolt[K].Start);
    if (E != AddressIndex::NotFound &&
        Index.blockStart(E) != BF.Address + Bolt[K].Start)
      Branch(Instrs[Bolt[K - 1].Last].Address, {true, BF.Name, Bolt[K].Start},
             Blocks.Counts[E]);
  }
  CallKey First{BF.Address, 0, false};
  for (auto It = Blocks.Calls.lower_bound(First);
       It != Blocks.Calls.end() && It->first.Site < BF.Address + BF.Size;
       ++It) {
    const BoltFunction *Callee =
        Records.functions().containing(It->first.Callee);
    BoltLocation To{false, "[unknown]", 0};
    if (Callee)
      To = {true, Callee->Name, It->first.Callee - Callee->Address};
    Branch(It->first.Site - BF.Address, To, It->second.Count);
  }
  if (Entered)
    R.Entries[{BoltLocation{false, "[unknown]", 0}, 0}].add(Entered, 0);
  return R;
}

boltyaml::Profile YAMLBuilder::build(const BlockProfile &Blocks) {
  boltyaml::Profile P;
  P.Head = header(BranchProfile());
  std::vector<FunctionBlocks> Profiled =
      profiledFunctions(Blocks, Binary.index());
  llvm::sort(Profiled, [](const FunctionBlocks &A, const FunctionBlocks &B) {
    return A.Address < B.Address;
  });
  for (const FunctionBlocks &F : Profiled) {
    const BoltFunction *BF = Records.functions().containing(F.Address);
    if (!BF || BF->Address != F.Address)
      continue;
    P.Functions.push_back(function(recordsOf(Blocks, F, *BF)));
  }
  return P;
}

} // namespace

Error checkBoltYAMLWritable(const MappedBinary &Binary) {
  if (!Binary.bat() || Binary.bat()->Format != BATFormat::Fixed)
    return Error::success();
  return createStringError(inconvertibleErrorCode(),
                           "YAML output for a binary BOLTed by BOLT 15/16 is "
                           "not supported (its BAT table has no hashes; "
                           "perf2bolt 16 refuses it too)");
}

Expected<boltyaml::Profile> buildBoltYAML(const BlockProfile &Blocks,
                                          const MappedBinary &Binary,
                                          const InstructionDecoder &Decoder,
                                          const BoltYAMLOptions &Options,
                                          WarningList *Warnings) {
  if (Error E = checkBoltYAMLWritable(Binary))
    return E;
  BoltYAMLOptions LBR = Options;
  LBR.BasicSamples = false;
  YAMLBuilder Builder(Binary, Decoder, LBR);
  boltyaml::Profile P = Builder.build(Blocks);
  if (Warnings)
    Warnings->append(Builder.warnings());
  return P;
}

Expected<boltyaml::Profile>
buildBoltYAML(const BranchProfile &Profile, const MappedBinary &Binary,
              const InstructionDecoder &Decoder, const BoltYAMLOptions &Options,
              FdataStats *Stats, WarningList *Warnings) {
  if (Error E = checkBoltYAMLWritable(Binary))
    return E;
  YAMLBuilder Builder(Binary, Decoder, Options);
  boltyaml::Profile P = Builder.build(Profile);
  if (Stats)
    *Stats = Builder.stats();
  if (Warnings)
    Warnings->append(Builder.warnings());
  return P;
}

} // namespace bbmap
