//===- BATProfileTranslator.cpp - BOLTed profiles in input terms ----------===//
//
// The BAT entries of a BOLTed fragment, by output offset, say where each
// BOLT block of the output starts in the input function. An instruction of
// the output maps to the input as follows: an entry at its offset gives its
// input offset; a branch without an entry of its own is one BOLT added and
// stands for the last instruction of its input block; any other
// instruction is found by counting instructions from the entry before it
// in both binaries (BOLT shortens instructions but keeps their order).
//
// Input code is read in stretches: from an address to the first branch,
// return or trap, or to the last instruction before another BOLT block of
// the function starts. The last instruction of a stretch tells whether the
// input fell through to the next block or jumped there; where it did
// neither (BOLT jumps straight to the final target of a jump chain, e.g.
// a conditional tail call), one intermediate stretch is tried.
//
//===----------------------------------------------------------------------===//

#include "bbmap/BoltProfile/BATProfileTranslator.h"
#include "bbmap/Support/AnyKeyMap.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include <map>

using namespace llvm;

namespace bbmap {

namespace {

/// Instructions decoded at most in one stretch or count.
constexpr unsigned MaxStretch = 1 << 14;
/// Padding instructions stepped over at most between two blocks.
constexpr unsigned MaxPadding = 16;

Error inputError(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), Msg);
}

/// The output address of the function a fragment belongs to.
uint64_t functionOf(const BATTranslator &T, uint64_t FragmentAddress) {
  return T.parentOf(FragmentAddress).value_or(FragmentAddress);
}

/// A BOLTed fragment (a function or one of its cold parts) resolved against
/// the input binary.
struct Fragment {
  uint64_t Address = 0;
  /// Block and branch entries by output offset as BOLT orders them; empty
  /// for a function BOLT left without a table. Offsets is parallel.
  std::vector<const BATEntry *> Entries;
  std::vector<uint64_t> Offsets;
  /// The input function's address; unset when the input binary has no
  /// unique function of that name.
  std::optional<uint64_t> InputFunction;
  /// Input offsets where the function's BOLT blocks start, sorted.
  const std::vector<uint64_t> *Boundaries = nullptr;

  bool isBlock(size_t I) const { return !Entries[I]->IsBranch; }
  uint64_t input(size_t I) const {
    return *InputFunction + Entries[I]->InputOffset;
  }
};

/// Whether a BOLT block of \p F's function starts at input \p Address.
bool isBoundary(const Fragment &F, uint64_t Address) {
  return F.Boundaries &&
         llvm::binary_search(*F.Boundaries, Address - *F.InputFunction);
}

/// How the input gets from the last instruction of a stretch to an address:
/// on to the next instruction, on after a call returns (no CFG edge), by a
/// jump, or not at all.
enum class Link { FallsThrough, Returns, Jumps, None };

/// What a BOLTed address is to the record: an instruction that executed
/// (a branch source, a run's end, a sample), or where execution went (a
/// branch target, a run's start). They differ at an instruction BOLT added:
/// as an instruction it stands for the input block's last instruction, as
/// a target for where the input went on from there.
enum class Role { Executed, Entered };

/// A stretch of input code reached through another one.
struct Bridge {
  uint64_t Via = 0;
  uint64_t ViaLast = 0;
};

/// The input binary's traces of one BOLTed record, built left to right: a
/// run in progress, and a branch waiting for the run it leads to.
class Path {
public:
  Path(const Trace &Record, std::vector<Trace> &Out)
      : Count(Record.Count), Out(Out) {
    if (!Record.hasBranch())
      FirstRunKind = Record.Kind;
  }

  bool inRun() const { return RunBegin.has_value(); }
  uint64_t runBegin() const { return *RunBegin; }
  void beginRun(uint64_t Address) { RunBegin = Address; }
  /// Begins a run that a return entered (after the call that ended the
  /// block before \p Address), so that the block counter charges that
  /// block's fall-through edge.
  void beginRunAfterReturn(uint64_t Address) {
    RunBegin = Address;
    FirstRunKind = TraceKind::ExternalReturn;
  }
  void dropRun() { RunBegin.reset(); }
  void endRun(uint64_t Last);
  void branch(Trace B);
  void finish() { flushBranch(); }

private:
  void flushBranch();

  uint64_t Count;
  std::vector<Trace> &Out;
  TraceKind FirstRunKind = TraceKind::Fallthrough;
  std::optional<uint64_t> RunBegin;
  std::optional<Trace> Pending;
};

void Path::endRun(uint64_t Last) {
  if (!RunBegin)
    return;
  uint64_t Begin = *RunBegin;
  RunBegin.reset();
  if (Pending && !Pending->ToExternal && Pending->To == Begin) {
    Pending->Kind = TraceKind::BranchAndFallthrough;
    Pending->FallthroughEnd = Last;
    Out.push_back(*Pending);
    Pending.reset();
    return;
  }
  flushBranch();
  Trace T;
  T.Kind = FirstRunKind;
  T.To = Begin;
  T.FallthroughEnd = Last;
  T.Count = Count;
  Out.push_back(T);
  FirstRunKind = TraceKind::Fallthrough;
}

void Path::branch(Trace B) {
  flushBranch();
  B.Kind = TraceKind::Branch;
  B.Count = Count;
  Pending = B;
}

void Path::flushBranch() {
  if (Pending)
    Out.push_back(*Pending);
  Pending.reset();
}

class Translator {
public:
  explicit Translator(const BATBinaries &B);
  void addTrace(const Trace &T);
  void addSample(const Sample &S);
  TranslatedProfile Result;

private:
  /// Where a BOLTed address lies: its fragment (null outside every function
  /// symbol, where addresses are kept) and the offset in it.
  struct Place {
    const Fragment *F = nullptr;
    uint64_t Offset = 0;
    uint64_t Address = 0;
  };
  /// A record's entry into a fragment: the input address, and the block
  /// entries at the same output offset still to pass (empty blocks first).
  struct Entry {
    uint64_t Address = 0;
    size_t Next = 0;
    size_t End = 0;
    /// Address is a return point before the entries: pick the one entered.
    bool Pick = false;
  };

  void buildBoundaries();
  const Fragment *fragmentAt(uint64_t Address);
  std::optional<Place> place(uint64_t Address);
  uint64_t inputAddress(const Place &P, Role R);
  uint64_t countedAddress(const Place &P, size_t EntryIndex, Role R);
  std::optional<uint64_t> countInstructions(const Fragment &F, uint64_t Out,
                                            uint64_t Target, uint64_t In,
                                            Role R) const;
  Entry enter(const Place &P, std::optional<uint64_t> Source, bool MayReturn);
  std::optional<uint64_t> returnPoint(const Place &P, size_t Lo);
  std::optional<uint64_t> stretchEnd(const Fragment &F, uint64_t Begin);
  std::optional<uint64_t> scanStretch(const Fragment &F, uint64_t Begin) const;
  Link linkOf(uint64_t Last, uint64_t Target);
  bool reaches(uint64_t Last, uint64_t Target);
  bool fallsInto(uint64_t Address, uint64_t Target) const;
  std::optional<Bridge> bridge(const Fragment *F, uint64_t Last,
                               uint64_t Target);
  bool isBlockStart(uint64_t Address) const;
  void step(Path &P, const Fragment *F, uint64_t Last, uint64_t Target,
            uint64_t Mispreds, bool BoltedFallsThrough);
  BranchSource sourceOf(const Trace &T) const;
  bool addBranch(const Trace &T, Path &P, std::optional<Entry> &To);
  void addRun(const Trace &T, Path &P, std::optional<Entry> To);
  std::optional<std::pair<Trace, Trace>> splitAtFunction(const Trace &T);
  void translate(const Trace &T);
  void passGroup(Path &P, const Fragment &F, uint64_t &Cur, size_t From,
                 size_t End, bool Pick);
  std::optional<size_t> pickBlock(const Fragment &F, size_t Lo, size_t Hi,
                                  std::optional<uint64_t> Source);

  const BATBinaries &B;
  const BATTranslator &BAT;
  std::map<uint64_t, std::vector<uint64_t>> BoundariesOf;
  std::map<uint64_t, Fragment> Fragments;
  /// By (BOLTed address, role): a pair of reserved halves is DenseMap's
  /// reserved key, and no role is one.
  DenseMap<std::pair<uint64_t, uint8_t>, uint64_t> InputAddresses;
  /// By input address, any value of it.
  AnyKeyMap<uint64_t, std::optional<uint64_t>> StretchEnds;
  BATTranslationStats &Stats = Result.Stats;
};

Translator::Translator(const BATBinaries &B)
    : B(B), BAT(*B.Bolted.translator()) {
  buildBoundaries();
}

void Translator::buildBoundaries() {
  for (const BATFunction *F : boltOrder(*B.Bolted.bat())) {
    std::vector<uint64_t> &V = BoundariesOf[functionOf(BAT, F->Address)];
    for (const BATEntry &E : F->Entries)
      if (!E.IsBranch)
        V.push_back(E.InputOffset);
  }
  for (auto &[Address, V] : BoundariesOf) {
    llvm::sort(V);
    V.erase(std::unique(V.begin(), V.end()), V.end());
  }
}

const Fragment *Translator::fragmentAt(uint64_t Address) {
  const FunctionSymbol *S = BAT.symbolContaining(Address);
  if (!S)
    return nullptr;
  auto [It, New] = Fragments.try_emplace(S->Address);
  Fragment &F = It->second;
  if (!New)
    return &F;
  F.Address = S->Address;
  if (const BATFunction *Table = BAT.tableAt(S->Address))
    F.Entries = boltOrder(*Table, B.Bolted.bat()->Format);
  for (const BATEntry *E : F.Entries)
    F.Offsets.push_back(E->OutputOffset);
  uint64_t Function = functionOf(BAT, S->Address);
  const FunctionSymbol *Named = BAT.symbolAt(Function);
  if (Named) {
    if (Expected<uint64_t> In = B.Input.addressOf(Named->Name))
      F.InputFunction = *In;
    else
      // A look-up: a name the input binary lacks or has several of gives
      // the function no input function, as BOLT's translation does.
      consumeError(In.takeError());
  }
  auto Bounds = BoundariesOf.find(Function);
  if (Bounds != BoundariesOf.end())
    F.Boundaries = &Bounds->second;
  return &F;
}

std::optional<Translator::Place> Translator::place(uint64_t Address) {
  Place P;
  P.Address = Address;
  P.F = fragmentAt(Address);
  if (P.F && !P.F->InputFunction)
    return std::nullopt;
  if (P.F)
    P.Offset = Address - P.F->Address;
  return P;
}

uint64_t Translator::inputAddress(const Place &P, Role R) {
  if (!P.F)
    return P.Address;
  const Fragment &F = *P.F;
  size_t I = llvm::upper_bound(F.Offsets, P.Offset) - F.Offsets.begin();
  if (I == 0)
    return *F.InputFunction + P.Offset;
  --I;
  if (F.Offsets[I] == P.Offset)
    return F.input(I);
  auto [It, New] = InputAddresses.try_emplace({P.Address, uint8_t(R)}, 0);
  if (New)
    It->second = countedAddress(P, I, R);
  return It->second;
}

/// The input address of a BOLTed instruction that has no entry, from the
/// entry \p EntryIndex before it. A branch the count does not find in the
/// same BOLT block of the input is one BOLT added: the input's block ended
/// with its last instruction.
uint64_t Translator::countedAddress(const Place &P, size_t EntryIndex, Role R) {
  const Fragment &F = *P.F;
  uint64_t Base = F.input(EntryIndex);
  uint64_t Fallback = Base + (P.Offset - F.Offsets[EntryIndex]);
  std::optional<uint64_t> Counted = countInstructions(
      F, F.Address + F.Offsets[EntryIndex], P.Address, Base, R);
  std::optional<Instruction> Here = B.BoltedCode.decode(P.Address);
  if (R == Role::Entered || !Here || !Here->endsBlock() || !F.Boundaries)
    return Counted.value_or(Fallback);
  std::optional<Instruction> There;
  if (Counted)
    There = B.InputCode.decode(*Counted);
  if (There && There->endsBlock())
    return *Counted;
  return stretchEnd(F, Base).value_or(Fallback);
}

/// Counts the instructions (nops aside) from \p Out to \p Target in the
/// BOLTed binary and as many from \p In in the input; none if either does
/// not decode or the count reaches another BOLT block of the input (an
/// address that is Entered may be that block's start).
std::optional<uint64_t>
Translator::countInstructions(const Fragment &F, uint64_t Out, uint64_t Target,
                              uint64_t In, Role R) const {
  for (unsigned N = 0; Out < Target && N < MaxStretch; ++N) {
    std::optional<Instruction> O = B.BoltedCode.decode(Out);
    std::optional<Instruction> I = B.InputCode.decode(In);
    if (!O || !I)
      return std::nullopt;
    if (O->Kind == InstrKind::Nop) {
      Out = O->end();
      continue;
    }
    In = I->end();
    if (I->Kind != InstrKind::Nop)
      Out = O->end();
    bool MayEnd = R == Role::Entered && Out == Target;
    if (!MayEnd && isBoundary(F, In))
      return std::nullopt;
  }
  if (Out != Target)
    return std::nullopt;
  return In;
}

Translator::Entry Translator::enter(const Place &P,
                                    std::optional<uint64_t> Source,
                                    bool MayReturn) {
  Entry E;
  if (!P.F || P.F->Entries.empty()) {
    E.Address = inputAddress(P, Role::Entered);
    return E;
  }
  const Fragment &F = *P.F;
  size_t Lo = llvm::lower_bound(F.Offsets, P.Offset) - F.Offsets.begin();
  size_t Hi = llvm::upper_bound(F.Offsets, P.Offset) - F.Offsets.begin();
  std::optional<size_t> Pick = pickBlock(F, Lo, Hi, Source);
  std::optional<uint64_t> Return;
  if (Pick && MayReturn && !(Source && reaches(*Source, F.input(*Pick))))
    Return = returnPoint(P, Lo);
  for (size_t I = Lo; Return && I < Hi; ++I)
    if (F.isBlock(I) && F.input(I) == *Return) {
      Pick = I;
      Return.reset();
    }
  if (Return) {
    E.Address = *Return;
    E.Next = Lo;
    E.End = Hi;
    E.Pick = true;
    return E;
  }
  if (!Pick) {
    E.Address = inputAddress(P, Role::Entered);
    return E;
  }
  E.Address = F.input(*Pick);
  E.Next = *Pick + 1;
  E.End = Hi;
  return E;
}

/// Where the input returns to when a return (or an unknown branch) lands
/// at block entries [Lo, ...) right after a call: the input's call may be
/// followed by a jump BOLT removed, which then executed.
std::optional<uint64_t> Translator::returnPoint(const Place &P, size_t Lo) {
  const Fragment &F = *P.F;
  if (Lo == 0)
    return std::nullopt;
  uint64_t Out = F.Address + F.Offsets[Lo - 1];
  std::optional<Instruction> I = B.BoltedCode.decode(Out);
  for (unsigned N = 0; I && I->end() < P.Address && N < MaxStretch; ++N)
    I = B.BoltedCode.decode(I->end());
  if (!I || !I->isCall() || I->end() != P.Address)
    return std::nullopt;
  Place Call{P.F, I->Address - F.Address, I->Address};
  std::optional<Instruction> InCall =
      B.InputCode.decode(inputAddress(Call, Role::Executed));
  if (!InCall || !InCall->isCall())
    return std::nullopt;
  return InCall->end();
}

/// Of the block entries [Lo, Hi), which share one output offset, the one
/// the input entered from \p Source: empty blocks (a jump BOLT removed, or
/// padding) come before the block after them, and the input's own branch
/// target or fall-through tells which was entered. Without one (an
/// indirect branch, an unknown source), the last: BOLT's translate().
std::optional<size_t> Translator::pickBlock(const Fragment &F, size_t Lo,
                                            size_t Hi,
                                            std::optional<uint64_t> Source) {
  std::optional<size_t> Last;
  for (size_t I = Lo; I < Hi; ++I) {
    if (!F.isBlock(I))
      continue;
    if (Source && reaches(*Source, F.input(I)))
      return I;
    Last = I;
  }
  return Last;
}

std::optional<uint64_t> Translator::stretchEnd(const Fragment &F,
                                               uint64_t Begin) {
  auto It = StretchEnds.find(Begin);
  if (It != StretchEnds.end())
    return It->second;
  std::optional<uint64_t> End = scanStretch(F, Begin);
  StretchEnds[Begin] = End;
  return End;
}

std::optional<uint64_t> Translator::scanStretch(const Fragment &F,
                                                uint64_t Begin) const {
  // Padding nops at the end are not the stretch's last instruction: the
  // input's block (and its map's) ends before them.
  uint64_t A = Begin, Last = Begin;
  for (unsigned N = 0; N < MaxStretch; ++N) {
    std::optional<Instruction> I = B.InputCode.decode(A);
    if (!I)
      return std::nullopt;
    if (I->Kind != InstrKind::Nop)
      Last = A;
    if (I->endsBlock() || isBoundary(F, I->end()))
      return Last;
    A = I->end();
  }
  return std::nullopt;
}

Link Translator::linkOf(uint64_t Last, uint64_t Target) {
  std::optional<Instruction> I = B.InputCode.decode(Last);
  if (!I)
    return Link::None;
  if (!I->isBarrier() && fallsInto(I->end(), Target))
    return I->isCall() ? Link::Returns : Link::FallsThrough;
  if (I->Kind == InstrKind::IndirectBranch ||
      ((I->Kind == InstrKind::CondBranch ||
        I->Kind == InstrKind::UncondBranch) &&
       I->Target == Target))
    return Link::Jumps;
  return Link::None;
}

/// Whether execution from \p Address reaches \p Target straight, through
/// padding nops (BOLT drops them, the input executes them).
bool Translator::fallsInto(uint64_t Address, uint64_t Target) const {
  for (unsigned N = 0; Address < Target && N < MaxPadding; ++N) {
    std::optional<Instruction> I = B.InputCode.decode(Address);
    if (!I || I->Kind != InstrKind::Nop)
      return false;
    Address = I->end();
  }
  return Address == Target;
}

/// Whether \p Last (a branch source) goes to \p Target by its own target or
/// by falling through.
bool Translator::reaches(uint64_t Last, uint64_t Target) {
  std::optional<Instruction> I = B.InputCode.decode(Last);
  if (!I)
    return false;
  return I->Target == Target ||
         (!I->isBarrier() && fallsInto(I->end(), Target));
}

std::optional<Bridge> Translator::bridge(const Fragment *F, uint64_t Last,
                                         uint64_t Target) {
  std::optional<Instruction> I = B.InputCode.decode(Last);
  if (!F || !F->Boundaries || !I)
    return std::nullopt;
  // The input's next instructions within the same BOLT block first (a
  // conditional branch and the jump after it, which BOLT may invert into
  // one), then other blocks (one BOLT bypassed).
  SmallVector<uint64_t, 2> Next;
  if (I->Target && !I->isCall())
    Next.push_back(*I->Target);
  if (!I->isBarrier())
    Next.push_back(I->end());
  llvm::stable_sort(Next, [&](uint64_t A, uint64_t B) {
    return !isBoundary(*F, A) && isBoundary(*F, B);
  });
  for (uint64_t Via : Next) {
    std::optional<uint64_t> ViaLast = stretchEnd(*F, Via);
    if (ViaLast && linkOf(*ViaLast, Target) != Link::None)
      return Bridge{Via, *ViaLast};
  }
  return std::nullopt;
}

bool Translator::isBlockStart(uint64_t Address) const {
  const AddressIndex &Index = B.Input.index();
  uint32_t E = Index.find(Address, LookupSide::To);
  return E != AddressIndex::NotFound && Index.blockStart(E) == Address;
}

/// Moves the input's execution from \p Last, the last instruction of a
/// stretch, to \p Target: on in the same run, or by a branch (a fall-through
/// between two records, or an input jump, is charged as its CFG edge).
void Translator::step(Path &P, const Fragment *F, uint64_t Last,
                      uint64_t Target, uint64_t Mispreds,
                      bool BoltedFallsThrough) {
  Link L = linkOf(Last, Target);
  if (L == Link::None) {
    if (std::optional<Bridge> Via = bridge(F, Last, Target)) {
      step(P, F, Last, Via->Via, Mispreds, false);
      step(P, F, Via->ViaLast, Target, 0, false);
      return;
    }
    ++Stats.Unexplained;
  } else if ((L == Link::FallsThrough || L == Link::Returns) !=
             BoltedFallsThrough) {
    ++Stats.LayoutJumps;
  }
  if (L == Link::FallsThrough && BoltedFallsThrough && P.inRun())
    return;
  P.endRun(Last);
  if (L == Link::FallsThrough && !isBlockStart(Target) && !isBlockStart(Last)) {
    // Into padding or the middle of a block: the input's run goes on from
    // Last, which charges the fall-through edge out of Last's block.
    P.beginRun(Last);
    return;
  }
  if (L == Link::None || L == Link::Jumps || L == Link::FallsThrough) {
    Trace Edge;
    Edge.From = Last;
    Edge.To = Target;
    Edge.Mispreds = Mispreds;
    Edge.Source = BranchSource::Jump;
    P.branch(Edge);
  }
  if (L == Link::Returns)
    P.beginRunAfterReturn(Target);
  else
    P.beginRun(Target);
}

BranchSource Translator::sourceOf(const Trace &T) const {
  if (T.Kind == TraceKind::Return)
    return BranchSource::Return;
  std::optional<Instruction> I = B.BoltedCode.decode(T.From);
  if (I && I->isCall())
    return BranchSource::Call;
  if (I && I->Kind == InstrKind::Return)
    return BranchSource::Return;
  return BranchSource::Jump;
}

/// Translates \p T's branch into \p P; sets \p To to where it enters. False
/// when an end lies in a function the input binary lacks.
bool Translator::addBranch(const Trace &T, Path &P, std::optional<Entry> &To) {
  std::optional<Place> From, Target;
  if (!T.FromExternal && !(From = place(T.From)))
    return false;
  if (!T.ToExternal && !(Target = place(T.To)))
    return false;
  std::optional<uint64_t> InFrom;
  if (From)
    InFrom = inputAddress(*From, Role::Executed);
  BranchSource Source = T.FromExternal ? BranchSource::Decode : sourceOf(T);
  if (Target)
    To = enter(*Target, InFrom,
               Source == BranchSource::Return || T.FromExternal);
  if (Source == BranchSource::Jump && From && Target) {
    step(P, From->F, *InFrom, To->Address, T.Mispreds, false);
    return true;
  }
  Trace Branch = T;
  Branch.From = InFrom.value_or(0);
  Branch.To = To ? To->Address : 0;
  Branch.Source = Source;
  P.branch(Branch);
  if (To)
    P.beginRun(To->Address);
  return true;
}

/// Passes the block entries [From, End) of \p F, which share one output
/// offset, in layout order; with \p Pick, from the one the input enters.
void Translator::passGroup(Path &P, const Fragment &F, uint64_t &Cur,
                           size_t From, size_t End, bool Pick) {
  for (size_t I = From; I < End; ++I) {
    if (!F.isBlock(I))
      continue;
    std::optional<uint64_t> Last = stretchEnd(F, Cur);
    if (Pick)
      I = pickBlock(F, I, End, Last).value_or(I);
    Pick = false;
    if (!Last) {
      ++Stats.Unexplained;
      P.dropRun();
      P.beginRun(F.input(I));
    } else {
      step(P, &F, *Last, F.input(I), 0, true);
    }
    Cur = F.input(I);
  }
}

void Translator::addRun(const Trace &T, Path &P, std::optional<Entry> To) {
  std::optional<Place> Begin = place(T.To), End = place(T.FallthroughEnd);
  if (!Begin || !End) {
    ++Stats.UnknownFunction;
    return;
  }
  if (Begin->F != End->F) {
    ++Stats.RunsAcrossFragments;
    return;
  }
  if (!To)
    To = enter(*Begin, std::nullopt, /*MayReturn=*/true);
  if (!P.inRun())
    P.beginRun(To->Address);
  uint64_t Cur = To->Address;
  if (const Fragment *F = Begin->F) {
    passGroup(P, *F, Cur, To->Next, To->End, To->Pick);
    size_t I =
        llvm::upper_bound(F->Offsets, Begin->Offset) - F->Offsets.begin();
    while (I < F->Offsets.size() && F->Offsets[I] <= End->Offset) {
      size_t Hi =
          llvm::upper_bound(F->Offsets, F->Offsets[I]) - F->Offsets.begin();
      passGroup(P, *F, Cur, I, Hi, true);
      I = Hi;
    }
  }
  uint64_t Last = inputAddress(*End, Role::Executed);
  if (Last < P.runBegin()) {
    // A run of instructions BOLT added only (a jump after a call) executed
    // nothing in the input.
    std::optional<Instruction> I = B.InputCode.decode(Last);
    if (!I || I->end() != P.runBegin())
      ++Stats.Unexplained;
    P.dropRun();
    return;
  }
  P.endRun(Last);
}

void Translator::addTrace(const Trace &T) {
  ++Stats.Records;
  if (std::optional<std::pair<Trace, Trace>> Split = splitAtFunction(T)) {
    translate(Split->first);
    translate(Split->second);
    return;
  }
  translate(T);
}

/// A run the tracer saw pass from one BOLTed function into the next one
/// (a jump to the next instruction looks like a fall-through), as the run
/// up to that jump and the jump with the run after it.
std::optional<std::pair<Trace, Trace>>
Translator::splitAtFunction(const Trace &T) {
  if (!T.hasFallthrough() || T.FallthroughEnd < T.To)
    return std::nullopt;
  const Fragment *Next = fragmentAt(T.FallthroughEnd);
  if (!Next || Next == fragmentAt(T.To) || Next->Address <= T.To)
    return std::nullopt;
  std::optional<Instruction> I = B.BoltedCode.decode(T.To);
  for (unsigned N = 0; I && I->end() < Next->Address && N < MaxStretch; ++N)
    I = B.BoltedCode.decode(I->end());
  if (!I || I->end() != Next->Address)
    return std::nullopt;
  Trace First = T, Second = T;
  First.FallthroughEnd = I->Address;
  Second.Kind = TraceKind::BranchAndFallthrough;
  Second.From = I->Address;
  Second.To = Next->Address;
  Second.FromExternal = Second.ToExternal = false;
  Second.Mispreds = 0;
  return std::make_pair(First, Second);
}

void Translator::translate(const Trace &T) {
  Path P(T, Result.Profile.Traces);
  std::optional<Entry> To;
  if (T.hasBranch() && !addBranch(T, P, To)) {
    ++Stats.UnknownFunction;
    return;
  }
  if (T.hasFallthrough())
    addRun(T, P, To);
  else
    P.dropRun();
  P.finish();
}

void Translator::addSample(const Sample &S) {
  std::optional<Place> P = place(S.Address);
  if (!P) {
    ++Stats.SamplesDropped;
    return;
  }
  Result.Profile.Samples.push_back({inputAddress(*P, Role::Executed), S.Count});
}

/// BOLT's output build ID: the input's with the last bit flipped.
std::string boltedBuildID(StringRef InputID) {
  std::string ID = InputID.str();
  if (ID.empty())
    return ID;
  char &C = ID.back();
  unsigned V = hexDigitValue(C) ^ 1;
  C = hexdigit(V, /*LowerCase=*/true);
  return ID;
}

Error checkBuildID(const MappedBinary &Bolted, const MappedBinary &Input) {
  if (Bolted.buildID().empty() || Input.buildID().empty() ||
      boltedBuildID(Input.buildID()) == Bolted.buildID())
    return Error::success();
  return inputError("build ID " + Input.buildID() + " is not the input's of '" +
                    Bolted.path() + "' (BOLT writes the input's build ID " +
                    "with the last bit flipped, " + Bolted.buildID() +
                    "): give the binary BOLT read, or --ignore-build-id");
}

/// The greatest input offset each function's tables name.
std::map<uint64_t, uint64_t> maxInputOffsets(const BATTable &Table,
                                             const BATTranslator &T) {
  std::map<uint64_t, uint64_t> Max;
  for (const BATFunction *F : boltOrder(Table)) {
    uint64_t &M = Max[functionOf(T, F->Address)];
    for (const BATEntry &E : F->Entries)
      M = std::max(M, E.InputOffset);
  }
  return Max;
}

Error checkFunction(const MappedBinary &Bolted, const MappedBinary &Input,
                    uint64_t Function, uint64_t MaxOffset) {
  const FunctionSymbol *S = Bolted.translator()->symbolAt(Function);
  if (!S)
    return Error::success();
  Expected<uint64_t> In = Input.addressOf(S->Name);
  if (!In) {
    std::string Why = toString(In.takeError());
    if (StringRef(Why).contains("ambiguous"))
      return Error::success();
    return inputError("no function '" + S->Name +
                      "', which the BAT table of '" + Bolted.path() +
                      "' names: not the binary BOLT read");
  }
  const FunctionSymbol *InSym = symbolAt(Input.symbols(), *In);
  if (InSym && InSym->Size && MaxOffset >= InSym->Size)
    return inputError("function '" + S->Name + "' is " + Twine(InSym->Size) +
                      " bytes, but the BAT table of '" + Bolted.path() +
                      "' maps its input offset " + Twine(MaxOffset) +
                      ": not the binary BOLT read");
  return Error::success();
}

} // namespace

Error checkBATInput(const MappedBinary &Bolted, const MappedBinary &Input,
                    bool IgnoreBuildID) {
  if (!IgnoreBuildID)
    if (Error E = checkBuildID(Bolted, Input))
      return E;
  for (const auto &[Function, Max] :
       maxInputOffsets(*Bolted.bat(), *Bolted.translator()))
    if (Error E = checkFunction(Bolted, Input, Function, Max))
      return E;
  return Error::success();
}

TranslatedProfile translateBATProfile(const BranchProfile &Profile,
                                      const BATBinaries &B) {
  Translator T(B);
  T.Result.Profile.Events = Profile.Events;
  T.Result.Profile.HasBranches = Profile.HasBranches;
  T.Result.Profile.Skipped = Profile.Skipped;
  T.Result.Profile.Translated = true;
  for (const Trace &Tr : Profile.Traces)
    T.addTrace(Tr);
  for (const Sample &S : Profile.Samples)
    T.addSample(S);
  return std::move(T.Result);
}

} // namespace bbmap
