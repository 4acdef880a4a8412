//===- BlockProfile.cpp - per-block and per-edge counts -------------------===//
//
// A fall-through run charges a contiguous span of AddressIndex entries, so
// runs are added to difference arrays (blocks, and fall-through edges
// entry -> entry + 1) in constant time whatever their length; one prefix
// sum at the end gives the counts. Branch sources are classified by the
// instruction there (decoded once), unless the trace carries its
// classification. Apart from the charging, each record is judged against
// the code it names (does it start and end where records of this binary
// can?) and counted per function in BlockProfile::Fit. A large profile is
// cut into slices, more than there are threads, each charged by a counter
// of its own on whichever thread is free; all that a counter holds is
// sums, which add up, and the blocks the counters decode are decoded once
// for all of them (DecodedBlocks).
//
//===----------------------------------------------------------------------===//

#include "bbmap/Profile/BlockProfile.h"
#include "bbmap/Support/AnyKeyMap.h"
#include "bbmap/Support/Parallel.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include <algorithm>
#include <atomic>
#include <cmath>
#include <deque>
#include <iterator>
#include <memory>
#include <numeric>
#include <optional>

using namespace llvm;

namespace bbmap {

namespace {

/// Records below which a profile is not worth cutting into parts.
constexpr size_t MinRecordsPerPart = 8192;
/// Parts per thread: enough that threads which finish early take more.
constexpr size_t PartsPerThread = 4;

/// The instructions of one block, decoded from its start; Complete is
/// false when decoding stopped before the block's end.
struct BlockCode {
  std::vector<Instruction> Instrs;
  bool Complete = true;
};

/// What a counter decodes, kept where it does not move.
using BlockCodeArena = std::deque<BlockCode>;

/// The decoded blocks of one binary, shared by the counters of a profile's
/// parts, which may run at the same time: a block is decoded by the first
/// counter that needs it, into that counter's arena. Two that race both
/// decode it and the first to finish is kept (the two are the same).
class DecodedBlocks {
public:
  DecodedBlocks(const AddressIndex &Index, const InstructionDecoder &Decoder)
      : Index(Index), Decoder(Decoder),
        Slots(new std::atomic<const BlockCode *>[Index.numBlocks()]()) {}

  /// Block \p Entry's code; \p Arena keeps it if this call decodes it.
  const BlockCode &get(uint32_t Entry, BlockCodeArena &Arena) {
    if (const BlockCode *C = Slots[Entry].load(std::memory_order_acquire))
      return *C;
    const BlockCode *Mine = &Arena.emplace_back(decode(Entry));
    const BlockCode *First = nullptr;
    if (Slots[Entry].compare_exchange_strong(First, Mine,
                                             std::memory_order_acq_rel))
      return *Mine;
    return *First;
  }

private:
  BlockCode decode(uint32_t Entry) const {
    BlockCode C;
    for (uint64_t A = Index.blockStart(Entry); A < Index.blockEnd(Entry);) {
      std::optional<Instruction> I = Decoder.decode(A);
      if (!I) {
        C.Complete = false;
        break;
      }
      C.Instrs.push_back(*I);
      A = I->end();
    }
    return C;
  }

  const AddressIndex &Index;
  const InstructionDecoder &Decoder;
  std::unique_ptr<std::atomic<const BlockCode *>[]> Slots;
};

class BlockCounter {
public:
  BlockCounter(const MappedBinary &Binary, const InstructionDecoder &Decoder,
               DecodedBlocks &Code, bool JudgeFit)
      : Index(Binary.index()), Decoder(Decoder), Code(Code),
        JudgeFit(JudgeFit) {}

  void addTrace(const Trace &T) {
    if (T.Repeated && isHardwareRepeat(T))
      return addRepeat(T);
    if (JudgeFit)
      judgeTrace(T);
    if (T.hasBranch())
      addBranch(T);
    if (T.hasFallthrough())
      addRun(T.To, T.FallthroughEnd, T.Count, enteredByReturn(T));
  }
  void addSample(const Sample &S);
  /// Adds what \p Other counted (another part of the same profile).
  void absorb(const BlockCounter &Other);
  BlockProfile finish(bool Sampled);

private:
  /// Sets \p Counts from the charged runs; the fall-through edges they
  /// ran, in key order.
  std::vector<BlockEdge> chargeRuns(std::vector<uint64_t> &Counts);
  /// What an address is within the code of its block.
  enum class Position { Instruction, Inside, Unknown };

  void judgeTrace(const Trace &T);
  bool sourceFits(const Trace &T, BranchSource Source, uint32_t Src);
  bool targetFits(const Trace &T, std::optional<BranchSource> Source,
                  uint32_t Src, uint32_t Dst);
  bool runStartFits(uint32_t First, uint64_t Begin);
  bool runEndFits(uint32_t Last, uint64_t End);
  bool followsCall(uint64_t Address);
  bool isLandingPad(uint32_t Entry) const {
    return Index.match(Entry).block().has(metadata::IsEHPad);
  }
  const BlockCode &codeOf(uint32_t Entry) { return Code.get(Entry, Arena); }
  Position positionOf(uint32_t Entry, uint64_t Address);
  const Instruction *instructionAt(uint32_t Entry, uint64_t Address);
  /// Notes that the current record has an end in the function of block
  /// \p Entry, and whether that end fits.
  void noteEnd(uint32_t Entry, bool Fits) {
    RecordEnds.push_back({Index.match(Entry).function().address(), Fits});
  }
  /// Counts the current record once for each function it touched.
  void commitRecord();

  void addBranch(const Trace &T);
  void addRun(uint64_t Begin, uint64_t End, uint64_t Count, bool AfterReturn);
  bool canRun(uint32_t First, uint64_t Begin, uint32_t Last, uint64_t End);
  bool isHardwareRepeat(const Trace &T);
  void addRepeat(const Trace &T);
  uint32_t blockBeforeGap(uint64_t Address) const;
  bool enteredByReturn(const Trace &T);
  bool endsWithCall(uint32_t Entry);
  /// True when \p Address is the entry of the function of block \p Entry.
  bool isFunctionEntry(uint32_t Entry, uint64_t Address) const {
    return Index.match(Entry).function().address() == Address;
  }
  /// The kind of the instruction at \p Address, in block \p Src.
  InstrKind kindAt(uint32_t Src, uint64_t Address);
  /// What the branch of \p T is; \p Src is the block of its source.
  BranchSource sourceOf(const Trace &T, uint32_t Src);
  void addCall(const Trace &T, bool TailCall) {
    EdgeCount &C = Calls[{T.From, T.To, TailCall}];
    C.Count += T.Count;
    C.Mispreds += T.Mispreds;
    ++Stats.Calls;
  }

  /// A run's charge: blocks [FirstCharged, Last] ran Count more times, and
  /// the fall-through edges from each of [First, Last) to the next.
  struct RunCharge {
    uint32_t First, FirstCharged, Last;
    uint64_t Count;
  };

  const AddressIndex &Index;
  const InstructionDecoder &Decoder;
  /// Decoded blocks, for judging records (those that branch sources, run
  /// ends, samples or return addresses lie in) and for runs that follow a
  /// return; what this counter decodes is kept in Arena.
  DecodedBlocks &Code;
  BlockCodeArena Arena;
  /// Charged runs and samples, applied to the counts by finish().
  std::vector<RunCharge> Runs;
  std::vector<std::pair<uint32_t, uint64_t>> SampleCharges;
  DenseMap<std::pair<uint32_t, uint32_t>, EdgeCount> Jumps;
  std::map<CallKey, EdgeCount> Calls;
  std::map<uint32_t, uint64_t> Returns;
  /// By address: a block's code can hold DenseMap's reserved keys.
  AnyKeyMap<uint64_t, InstrKind> Kinds;
  /// Whether any fall-through run charged blocks.
  bool ChargedRuns = false;
  /// Whether records are judged against the code (BlockProfile::Fit).
  bool JudgeFit;
  MappingStats Stats;
  /// The ends of the record being judged: (function address, fits).
  SmallVector<std::pair<uint64_t, bool>, 4> RecordEnds;
  /// By function address, any value of it.
  AnyKeyMap<uint64_t, FunctionFit> Fit;
};

/// When records are judged, the instruction is found in its block's code,
/// decoded for that anyway; else (or at an address no instruction of the
/// block starts at) it is decoded alone, once per address.
InstrKind BlockCounter::kindAt(uint32_t Src, uint64_t Address) {
  if (JudgeFit)
    if (const Instruction *I = instructionAt(Src, Address))
      return I->Kind;
  auto [It, New] = Kinds.try_emplace(Address, InstrKind::Other);
  if (New)
    if (std::optional<Instruction> I = Decoder.decode(Address))
      It->second = I->Kind;
  return It->second;
}

BranchSource BlockCounter::sourceOf(const Trace &T, uint32_t Src) {
  if (T.Kind == TraceKind::Return)
    return BranchSource::Return;
  if (T.Source != BranchSource::Decode)
    return T.Source;
  switch (kindAt(Src, T.From)) {
  case InstrKind::Return:
    return BranchSource::Return;
  case InstrKind::Call:
  case InstrKind::IndirectCall:
    return BranchSource::Call;
  default:
    return BranchSource::Jump;
  }
}

void BlockCounter::addBranch(const Trace &T) {
  uint32_t Src = Index.find(T.From, LookupSide::From);
  if (T.FromExternal || T.ToExternal || Src == AddressIndex::NotFound) {
    ++Stats.BranchesOutside;
    return;
  }
  // Only sources inside mapped blocks are decoded (and cached).
  BranchSource Source = sourceOf(T, Src);
  if (Source == BranchSource::Return) {
    ++Stats.Returns;
    Returns[Src] += T.Count;
    return;
  }
  if (Source == BranchSource::Call)
    return addCall(T, /*TailCall=*/false);
  uint32_t Dst = Index.find(T.To, LookupSide::To);
  if (Dst == AddressIndex::NotFound) {
    ++Stats.BranchesOutside;
    return;
  }
  if (!Index.sameFunction(Src, Dst) && isFunctionEntry(Dst, T.To))
    return addCall(T, /*TailCall=*/true);
  if (!Index.sameFunction(Src, Dst) || Index.blockStart(Dst) != T.To) {
    ++Stats.BranchesIntoBlock;
    return;
  }
  EdgeCount &E = Jumps[{Src, Dst}];
  E.Count += T.Count;
  E.Mispreds += T.Mispreds;
}

/// A run can start in the alignment padding between two blocks of one
/// range (a return to a call that ends its block): it then continues as if
/// it had started inside the block before the padding.
uint32_t BlockCounter::blockBeforeGap(uint64_t Address) const {
  uint32_t Next = Index.nextBlock(Address);
  if (Next == AddressIndex::NotFound || Next == 0 ||
      !Index.sameRange(Next - 1, Next))
    return AddressIndex::NotFound;
  return Next - 1;
}

/// A run that follows a return: one known as such, or one entered from
/// outside the maps at an address that is no function's entry (a return
/// from library code; callbacks enter at function entries).
bool BlockCounter::enteredByReturn(const Trace &T) {
  if (T.Kind == TraceKind::Return || T.Kind == TraceKind::ExternalReturn)
    return true;
  uint32_t Src = T.hasBranch() && !T.FromExternal
                     ? Index.find(T.From, LookupSide::From)
                     : AddressIndex::NotFound;
  bool FromOutside = T.Kind == TraceKind::ExternalOrigin ||
                     (T.hasBranch() && Src == AddressIndex::NotFound);
  if (!FromOutside)
    return T.hasBranch() && sourceOf(T, Src) == BranchSource::Return;
  uint32_t Dst = Index.find(T.To, LookupSide::To);
  return Dst == AddressIndex::NotFound || !isFunctionEntry(Dst, T.To);
}

/// True when the last instruction of block \p Entry is a call.
bool BlockCounter::endsWithCall(uint32_t Entry) {
  const BlockCode &C = codeOf(Entry);
  return C.Complete && !C.Instrs.empty() && C.Instrs.back().isCall();
}

/// Whether \p Address starts an instruction of block \p Entry; Unknown
/// where the block's bytes did not decode that far.
BlockCounter::Position BlockCounter::positionOf(uint32_t Entry,
                                                uint64_t Address) {
  const BlockCode &C = codeOf(Entry);
  auto It = llvm::partition_point(
      C.Instrs, [&](const Instruction &I) { return I.Address < Address; });
  if (It != C.Instrs.end() && It->Address == Address)
    return Position::Instruction;
  if (!C.Complete && (C.Instrs.empty() || C.Instrs.back().end() <= Address))
    return Position::Unknown;
  return Position::Inside;
}

const Instruction *BlockCounter::instructionAt(uint32_t Entry,
                                               uint64_t Address) {
  const BlockCode &C = codeOf(Entry);
  auto It = llvm::partition_point(
      C.Instrs, [&](const Instruction &I) { return I.Address < Address; });
  return It != C.Instrs.end() && It->Address == Address ? &*It : nullptr;
}

/// True when the instruction that ends at \p Address is a call: a return
/// lands there.
bool BlockCounter::followsCall(uint64_t Address) {
  uint32_t Entry = Index.find(Address - 1, LookupSide::From);
  if (Entry == AddressIndex::NotFound)
    return false;
  const BlockCode &C = codeOf(Entry);
  auto It = llvm::partition_point(
      C.Instrs, [&](const Instruction &I) { return I.end() < Address; });
  return It != C.Instrs.end() && It->end() == Address && It->isCall();
}

/// A branch source fits when it is a branch instruction: a call, return or
/// jump, or, for a fall-through line of fdata (from a block's last
/// instruction to the next instruction), any instruction.
bool BlockCounter::sourceFits(const Trace &T, BranchSource Source,
                              uint32_t Src) {
  Position P = positionOf(Src, T.From);
  if (P != Position::Instruction)
    return P == Position::Unknown;
  // The record says what the branch is (a translated profile, an `R`).
  if (T.Source != BranchSource::Decode || T.Kind == TraceKind::Return ||
      Source != BranchSource::Jump)
    return true;
  const Instruction &I = *instructionAt(Src, T.From);
  return I.endsBlock() || (!T.ToExternal && I.end() == T.To);
}

/// A call lands at a function's entry; a return after a call (or at a
/// block, when the call ended the one before); a jump at a block of its
/// function or at another function's entry (a tail call), or at the next
/// instruction (a fall-through line); a branch from outside the maps at a
/// block (a callback) or after a call (a return from library code).
bool BlockCounter::targetFits(const Trace &T,
                              std::optional<BranchSource> Source, uint32_t Src,
                              uint32_t Dst) {
  // The unwinder lands anywhere in a landing pad: with a section per
  // block, clang starts the pads' section with a `nop`, and the landing is
  // after it.
  bool AtBlock = Index.blockStart(Dst) == T.To || isLandingPad(Dst);
  if (!Source)
    return AtBlock || followsCall(T.To);
  switch (*Source) {
  case BranchSource::Call:
    return isFunctionEntry(Dst, T.To);
  case BranchSource::Return:
    return AtBlock || followsCall(T.To);
  default:
    break;
  }
  if (isFunctionEntry(Dst, T.To) || (AtBlock && Index.sameFunction(Src, Dst)))
    return true;
  const Instruction *I = instructionAt(Src, T.From);
  return I && I->end() == T.To;
}

/// A run starts at a block, after a call (a return landed there) or in a
/// landing pad (the unwinder did).
bool BlockCounter::runStartFits(uint32_t First, uint64_t Begin) {
  return Index.blockStart(First) == Begin || followsCall(Begin) ||
         isLandingPad(First);
}

/// A run ends at the instruction the next taken branch leaves from.
bool BlockCounter::runEndFits(uint32_t Last, uint64_t End) {
  Position P = positionOf(Last, End);
  if (P != Position::Instruction)
    return P == Position::Unknown;
  const Instruction &I = *instructionAt(Last, End);
  return I.endsBlock() || I.isCall();
}

void BlockCounter::judgeTrace(const Trace &T) {
  RecordEnds.clear();
  if (T.hasBranch()) {
    uint32_t Src = T.FromExternal ? AddressIndex::NotFound
                                  : Index.find(T.From, LookupSide::From);
    uint32_t Dst = T.ToExternal ? AddressIndex::NotFound
                                : Index.find(T.To, LookupSide::To);
    std::optional<BranchSource> Source;
    if (Src != AddressIndex::NotFound) {
      Source = sourceOf(T, Src);
      noteEnd(Src, sourceFits(T, *Source, Src));
    }
    if (Dst != AddressIndex::NotFound)
      noteEnd(Dst, targetFits(T, Source, Src, Dst));
  }
  if (T.hasFallthrough()) {
    uint64_t Begin = T.To, End = T.FallthroughEnd;
    uint32_t First = Index.find(Begin, LookupSide::To);
    if (First == AddressIndex::NotFound)
      First = Index.find(Begin, LookupSide::From);
    if (First == AddressIndex::NotFound)
      First = blockBeforeGap(Begin);
    uint32_t Last = Index.find(End, LookupSide::From);
    bool Whole = Begin <= End && First != AddressIndex::NotFound &&
                 Last != AddressIndex::NotFound &&
                 Index.runsThrough(First, Last);
    if (First != AddressIndex::NotFound)
      noteEnd(First, Whole && runStartFits(First, Begin));
    if (Last != AddressIndex::NotFound)
      noteEnd(Last, Whole && runEndFits(Last, End));
  }
  commitRecord();
}

void BlockCounter::commitRecord() {
  llvm::sort(RecordEnds);
  for (size_t I = 0; I < RecordEnds.size();) {
    uint64_t Function = RecordEnds[I].first;
    // Sorted: false before true, so the first end of a function tells.
    bool Fits = RecordEnds[I].second;
    FunctionFit &F = Fit[Function];
    ++F.Records;
    F.Misfits += !Fits;
    while (I < RecordEnds.size() && RecordEnds[I].first == Function)
      ++I;
  }
  RecordEnds.clear();
}

void BlockCounter::addRun(uint64_t Begin, uint64_t End, uint64_t Count,
                          bool AfterReturn) {
  if (Begin > End) {
    ++Stats.RunsBackwards;
    return;
  }
  uint32_t First = Index.find(Begin, LookupSide::To);
  if (First == AddressIndex::NotFound)
    First = Index.find(Begin, LookupSide::From);
  if (First == AddressIndex::NotFound)
    First = blockBeforeGap(Begin);
  // A return to a call that ended its block falls through from that block.
  else if (AfterReturn && Index.blockStart(First) == Begin && First > 0 &&
           Index.sameRange(First - 1, First) && endsWithCall(First - 1))
    --First;
  uint32_t Last = Index.find(End, LookupSide::From);
  if (First == AddressIndex::NotFound || Last == AddressIndex::NotFound) {
    ++Stats.RunsOutside;
    return;
  }
  if (!Index.runsThrough(First, Last)) {
    ++Stats.RunsAcrossRanges;
    return;
  }
  if (!canRun(First, Begin, Last, End)) {
    ++Stats.RunsMismatchingCode;
    return;
  }
  // A run that lands inside a block (after a return) enters the next one by
  // falling through, but did not execute the first one's first byte.
  uint32_t FirstCharged = Index.blockStart(First) >= Begin ? First : First + 1;
  ChargedRuns |= FirstCharged <= Last;
  Runs.push_back({First, FirstCharged, Last, Count});
}

/// True when control cannot pass \p I to the next instruction: a call,
/// return or trap, or a direct jump elsewhere. An indirect jump may target
/// the next instruction, which a tracer that sees only discontinuities
/// (test/tools/exact-trace) records as a fall-through.
static bool stopsRun(const Instruction &I) {
  switch (I.Kind) {
  case InstrKind::Call:
  case InstrKind::IndirectCall:
  case InstrKind::Return:
  case InstrKind::Trap:
    return true;
  case InstrKind::UncondBranch:
    return !I.Target || *I.Target != I.end();
  default:
    return false;
  }
}

/// True when the code can run from \p Begin to \p End (blocks \p First to
/// \p Last) without a taken branch: no instruction before End stops it
/// (stopsRun), and a block left by falling through whose bytes do not
/// all decode can fall through as the map says.
bool BlockCounter::canRun(uint32_t First, uint64_t Begin, uint32_t Last,
                          uint64_t End) {
  for (uint32_t E = First; E <= Last; ++E) {
    const BlockCode &C = codeOf(E);
    if (E != Last && !C.Complete &&
        !(Index.match(E).block().Metadata & metadata::CanFallThrough))
      return false;
    for (const Instruction &I : C.Instrs) {
      if (I.Address >= End)
        break;
      if (I.Address >= Begin && stopsRun(I))
        return false;
    }
  }
  return true;
}

/// A repeated stack entry is the hardware's duplicate when the run from its
/// target to its own source, which its repetition implies, cannot run (a
/// loop of one block, where it can, repeats entries for real).
bool BlockCounter::isHardwareRepeat(const Trace &T) {
  if (T.FromExternal || T.ToExternal)
    return false;
  uint32_t First = Index.find(T.To, LookupSide::To);
  uint32_t Last = Index.find(T.From, LookupSide::From);
  return First == AddressIndex::NotFound || Last == AddressIndex::NotFound ||
         T.To > T.From || !Index.runsThrough(First, Last) ||
         !canRun(First, T.To, Last, T.From);
}

/// The newer copy of a hardware duplicate is dropped, and so is the run
/// of the older one, which ends at the newer one's source; the older one's
/// branch is charged.
void BlockCounter::addRepeat(const Trace &T) {
  if (!T.hasFallthrough()) {
    Stats.RepeatedEntries += T.Count;
    return;
  }
  Trace Branch = T;
  Branch.Kind = TraceKind::Branch;
  Branch.Repeated = false;
  addTrace(Branch);
}

void BlockCounter::addSample(const Sample &S) {
  uint32_t Entry = Index.find(S.Address, LookupSide::From);
  if (Entry == AddressIndex::NotFound) {
    ++Stats.SamplesOutside;
    return;
  }
  // A sample fits at an instruction of its block.
  if (JudgeFit) {
    noteEnd(Entry, positionOf(Entry, S.Address) != Position::Inside);
    commitRecord();
  }
  SampleCharges.push_back({Entry, S.Count});
}

void BlockCounter::absorb(const BlockCounter &Other) {
  llvm::append_range(Runs, Other.Runs);
  llvm::append_range(SampleCharges, Other.SampleCharges);
  for (const auto &[Key, C] : Other.Jumps)
    Jumps[Key] += C;
  for (const auto &[Key, C] : Other.Calls)
    Calls[Key] += C;
  for (const auto &[Entry, Count] : Other.Returns)
    Returns[Entry] += Count;
  for (const auto &[Function, F] : Other.Fit) {
    FunctionFit &Mine = Fit[Function.Value];
    Mine.Records += F.Records;
    Mine.Misfits += F.Misfits;
  }
  ChargedRuns |= Other.ChargedRuns;
  Stats += Other.Stats;
}

std::vector<BlockEdge> BlockCounter::chargeRuns(std::vector<uint64_t> &Counts) {
  // Differences of block counts and of the counts of the fall-through
  // edges entry -> entry + 1 (unsigned arithmetic wraps back exactly).
  std::vector<uint64_t> BlockDiff(Index.numBlocks() + 1),
      FallDiff(Index.numBlocks() + 1);
  for (const RunCharge &R : Runs) {
    if (R.FirstCharged <= R.Last) {
      BlockDiff[R.FirstCharged] += R.Count;
      BlockDiff[R.Last + 1] -= R.Count;
    }
    if (R.First < R.Last) {
      FallDiff[R.First] += R.Count;
      FallDiff[R.Last] -= R.Count;
    }
  }
  std::vector<BlockEdge> FallEdges;
  uint64_t Block = 0, Fall = 0;
  for (uint32_t E = 0; E < Index.numBlocks(); ++E) {
    Block += BlockDiff[E];
    Fall += FallDiff[E];
    Counts[E] = Block;
    if (Fall)
      FallEdges.push_back({{E, E + 1}, EdgeCount{Fall, 0}});
  }
  return FallEdges;
}

BlockProfile BlockCounter::finish(bool Sampled) {
  BlockProfile P;
  P.Kind = Sampled ? CountKind::Samples : CountKind::Executions;
  P.Counts.resize(Index.numBlocks());
  for (const auto &[Entry, Count] : SampleCharges)
    P.Counts[Entry] += Count;
  // A profile of samples has no runs.
  std::vector<BlockEdge> FallEdges;
  if (!Runs.empty())
    FallEdges = chargeRuns(P.Counts);
  // The jumps in key order, merged with the fall-through edges.
  std::vector<BlockEdge> JumpEdges(Jumps.begin(), Jumps.end());
  llvm::sort(JumpEdges, llvm::less_first());
  std::vector<BlockEdge> Edges;
  std::merge(JumpEdges.begin(), JumpEdges.end(), FallEdges.begin(),
             FallEdges.end(), std::back_inserter(Edges), llvm::less_first());
  for (const auto &[Key, C] : Edges) {
    if (!P.Edges.empty() && std::prev(P.Edges.end())->first == Key)
      std::prev(P.Edges.end())->second += C;
    else
      P.Edges.emplace_hint(P.Edges.end(), Key, C);
  }
  P.Calls = std::move(Calls);
  P.Returns = std::move(Returns);
  P.Stats = Stats;
  for (const auto &[Function, F] : Fit)
    P.Fit.emplace(Function.Value, F);
  if (!Sampled && !ChargedRuns)
    countFromFlow(P, Index);
  return P;
}

} // namespace

void countFromFlow(BlockProfile &P, const AddressIndex &Index) {
  std::vector<uint64_t> In(P.Counts.size()), Out(P.Counts.size());
  for (const auto &[Key, C] : P.Edges) {
    Out[Key.first] += C.Count;
    In[Key.second] += C.Count;
  }
  for (const auto &[Entry, Count] : P.Returns)
    Out[Entry] += Count;
  for (const auto &[Key, C] : P.Calls) {
    uint32_t Callee = Index.find(Key.Callee, LookupSide::To);
    if (Callee != AddressIndex::NotFound)
      In[Callee] += C.Count;
    uint32_t Site = Index.find(Key.Site, LookupSide::From);
    if (Key.TailCall && Site != AddressIndex::NotFound)
      Out[Site] += C.Count;
  }
  for (size_t E = 0; E < P.Counts.size(); ++E)
    P.Counts[E] = std::max(In[E], Out[E]);
}

uint32_t entryPosition(const FunctionBlocks &F, const AddressIndex &Index) {
  for (uint32_t I = 0; I < F.Entries.size(); ++I)
    if (Index.blockStart(F.Entries[I]) == F.Address)
      return I;
  return 0;
}

namespace {

/// The edges of \p F among the edges in key order from \p It, the first
/// edge from F's first block, to \p End.
template <typename EdgeIterator>
std::vector<BlockEdge> edgesFrom(EdgeIterator It, EdgeIterator End,
                                 const AddressIndex &Index,
                                 const FunctionBlocks &F) {
  std::vector<BlockEdge> Edges;
  for (; It != End && It->first.first <= F.Entries.back(); ++It)
    if (Index.sameFunction(It->first.first, F.Entries.front()))
      Edges.push_back(*It);
  return Edges;
}

} // namespace

std::vector<BlockEdge> functionEdges(const BlockProfile &P,
                                     const AddressIndex &Index,
                                     const FunctionBlocks &F) {
  return edgesFrom(P.Edges.lower_bound({F.Entries.front(), 0}), P.Edges.end(),
                   Index, F);
}

std::vector<BlockEdge> functionEdges(ArrayRef<BlockEdge> Edges,
                                     const AddressIndex &Index,
                                     const FunctionBlocks &F) {
  auto First = llvm::partition_point(Edges, [&](const BlockEdge &E) {
    return E.first.first < F.Entries.front();
  });
  return edgesFrom(First, Edges.end(), Index, F);
}

std::vector<BlockEdge> sortedEdges(const BlockProfile &P) {
  return std::vector<BlockEdge>(P.Edges.begin(), P.Edges.end());
}

std::vector<FunctionMisfit> misfitFunctions(const BlockProfile &P,
                                            const AddressIndex &Index) {
  std::vector<FunctionMisfit> Result;
  for (const auto &[Address, Fit] : P.Fit) {
    if (!Fit.Misfits)
      continue;
    std::optional<BlockMatch> M = Index.lookup(Address, LookupSide::To);
    Result.push_back({M ? M->name() : StringRef(), Address, Fit});
  }
  llvm::stable_sort(Result,
                    [](const FunctionMisfit &A, const FunctionMisfit &B) {
                      return A.Fit.Misfits > B.Fit.Misfits;
                    });
  return Result;
}

std::vector<FunctionBlocks> mappedFunctions(const AddressIndex &Index) {
  using Key = std::pair<const DecodedSection *, uint32_t>;
  std::map<Key, FunctionBlocks> ByKey;
  // Entries follow addresses, so a function's blocks mostly come in a run:
  // the map is searched only where the function changes.
  std::optional<Key> LastKey;
  FunctionBlocks *Last = nullptr;
  for (uint32_t E = 0; E < Index.numBlocks(); ++E) {
    BlockMatch M = Index.match(E);
    Key K = {M.Section, M.Function};
    if (K != LastKey) {
      LastKey = K;
      Last = &ByKey[K];
    }
    if (Last->Entries.empty()) {
      Last->Name = M.name();
      Last->Address = M.function().address();
    }
    Last->Entries.push_back(E);
  }
  std::vector<FunctionBlocks> Result;
  for (auto &[Key, F] : ByKey)
    Result.push_back(std::move(F));
  return Result;
}

std::vector<FunctionBlocks> profiledFunctions(const BlockProfile &P,
                                              const AddressIndex &Index) {
  std::vector<FunctionBlocks> Result;
  for (FunctionBlocks &F : mappedFunctions(Index)) {
    for (uint32_t E : F.Entries)
      F.Total += P.Counts[E];
    if (!F.Total)
      continue;
    uint32_t Entry = F.Entries[entryPosition(F, Index)];
    if (Index.blockStart(Entry) == F.Address)
      F.EntryCount = P.Counts[Entry];
    Result.push_back(std::move(F));
  }
  llvm::stable_sort(Result,
                    [](const FunctionBlocks &A, const FunctionBlocks &B) {
                      return A.Total > B.Total;
                    });
  return Result;
}

std::string moduleOf(const FunctionBlocks &F, const MappedBinary &Binary) {
  for (const FunctionSymbol &S : symbolsAt(Binary.symbols(), F.Address))
    if (S.Name == F.Name)
      return S.File;
  return std::string();
}

BlockProfile countBlocks(const BranchProfile &Profile,
                         const MappedBinary &Binary,
                         const InstructionDecoder &Decoder, unsigned Threads) {
  bool Sampled = Profile.Traces.empty() && !Profile.Samples.empty();
  size_t Records = Sampled ? Profile.Samples.size() : Profile.Traces.size();
  size_t Parts = std::clamp<size_t>(Records / MinRecordsPerPart, 1,
                                    PartsPerThread * threadCount(Threads));
  // One counter per part, each over a contiguous slice of the records
  // (neighbours in address order, which touch the same blocks).
  DecodedBlocks Code(Binary.index(), Decoder);
  std::vector<std::unique_ptr<BlockCounter>> Counters(Parts);
  std::vector<uint32_t> PartOrder(Parts);
  std::iota(PartOrder.begin(), PartOrder.end(), 0);
  forEachInOrder(PartOrder, Threads, [&](uint32_t Part) {
    auto C = std::make_unique<BlockCounter>(Binary, Decoder, Code,
                                            /*JudgeFit=*/!Profile.Translated);
    for (size_t R = Records * Part / Parts, End = Records * (Part + 1) / Parts;
         R < End; ++R) {
      if (Sampled)
        C->addSample(Profile.Samples[R]);
      else
        C->addTrace(Profile.Traces[R]);
    }
    Counters[Part] = std::move(C);
  });
  for (size_t Part = 1; Part < Parts; ++Part)
    Counters.front()->absorb(*Counters[Part]);
  return Counters.front()->finish(Sampled);
}

namespace {

/// Whether block \p Entry holds a branch (a block whose bytes do not
/// decode counts as one: nothing is known to fall through it).
bool holdsBranch(const AddressIndex &Index, const InstructionDecoder &Decoder,
                 uint32_t Entry) {
  for (uint64_t A = Index.blockStart(Entry); A < Index.blockEnd(Entry);) {
    std::optional<Instruction> I = Decoder.decode(A);
    if (!I || I->isBranch())
      return true;
    A = I->end();
  }
  return false;
}

/// Adds to \p Counts, for each sample that knows its run, its count to
/// every block of the run before its branch's block that falls into the
/// next with no branch of its own: the blocks whose executions all reach
/// that branch. Returns the count of the samples that know their run.
uint64_t chargeRuns(ArrayRef<BranchSample> Samples, const AddressIndex &Index,
                    const InstructionDecoder &Decoder,
                    std::vector<uint64_t> &Counts) {
  std::vector<int8_t> Branchy(Index.numBlocks(), -1);
  auto HoldsBranch = [&](uint32_t E) {
    if (Branchy[E] < 0)
      Branchy[E] = holdsBranch(Index, Decoder, E);
    return Branchy[E] == 1;
  };
  uint64_t WithRun = 0;
  for (const BranchSample &S : Samples) {
    uint32_t E = S.RunStart ? Index.find(S.Address) : AddressIndex::NotFound;
    if (E == AddressIndex::NotFound)
      continue;
    WithRun += S.Count;
    for (; E > 0 && Index.fallsInto(E - 1) &&
           Index.blockStart(E - 1) >= S.RunStart && !HoldsBranch(E - 1);
         --E)
      Counts[E - 1] += S.Count;
  }
  return WithRun;
}

} // namespace

BlockProfile countBranchSamples(const BranchProfile &Profile,
                                const MappedBinary &Binary,
                                const InstructionDecoder &Decoder,
                                unsigned Threads) {
  BranchProfile AtBranches;
  uint64_t Total = 0;
  for (const BranchSample &S : Profile.BranchSamples) {
    AtBranches.Samples.push_back({S.Address, S.Count * BranchSampleUnit});
    Total += S.Count;
  }
  BlockProfile Blocks = countBlocks(AtBranches, Binary, Decoder, Threads);
  Blocks.Sampled = SampledOperation::Branch;
  std::vector<uint64_t> RunCounts(Blocks.Counts.size());
  uint64_t WithRun =
      chargeRuns(Profile.BranchSamples, Binary.index(), Decoder, RunCounts);
  if (!WithRun)
    return Blocks;
  // Samples without their run stand for runs like the others'.
  double Scale = double(BranchSampleUnit) * Total / WithRun;
  for (size_t E = 0; E < RunCounts.size(); ++E)
    Blocks.Counts[E] += std::llround(RunCounts[E] * Scale);
  Blocks.Sampled = SampledOperation::BranchAndRun;
  return Blocks;
}

} // namespace bbmap
