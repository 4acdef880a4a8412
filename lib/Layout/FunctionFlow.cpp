//===- FunctionFlow.cpp - a function's CFG as a profi flow network --------===//
//
// Nodes follow address order, so that node i + 1 is node i's fall-through,
// which profi makes cheap to use. Jumps are all unknown: only block weights
// steer the flow.
//
//===----------------------------------------------------------------------===//

#include "FunctionFlow.h"
#include "bbmap/Support/AnyKeyMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

using namespace llvm;

namespace bbmap {

void CFGNode::addSuccessor(uint32_t Node) {
  if (!is_contained(Successors, Node))
    Successors.push_back(Node);
}

namespace {

class CFGBuilder {
public:
  CFGBuilder(const FunctionBlocks &F, const AddressIndex &Index,
             const InstructionDecoder &Decoder)
      : F(F), Index(Index), Decoder(Decoder) {}

  /// The function's blocks with their successors; \p FromMap tells where
  /// the successors came from.
  std::vector<CFGNode> build(bool &FromMap);

private:
  std::optional<uint32_t> nodeAt(uint64_t Address) const;
  std::optional<uint32_t> fallThrough(uint32_t Node) const;
  void decodeBlock(uint32_t Node, CFGNode &N);
  void addTransfer(const Instruction &I, CFGNode &N) const;
  void addFallThrough(uint32_t Node, CFGNode &N,
                      const std::optional<Instruction> &Last);
  bool successorsFromMap(std::vector<CFGNode> &Nodes) const;

  const FunctionBlocks &F;
  const AddressIndex &Index;
  const InstructionDecoder &Decoder;
};

/// The node of the block that starts at \p Address in this function.
std::optional<uint32_t> CFGBuilder::nodeAt(uint64_t Address) const {
  uint32_t E = Index.find(Address, LookupSide::To);
  if (E == AddressIndex::NotFound || Index.blockStart(E) != Address ||
      !Index.sameFunction(E, F.Entries.front()))
    return std::nullopt;
  return llvm::lower_bound(F.Entries, E) - F.Entries.begin();
}

/// The next block of the same range (or of a range that touches this one),
/// where control falls through to.
std::optional<uint32_t> CFGBuilder::fallThrough(uint32_t Node) const {
  if (Node + 1 == F.Entries.size() || !Index.fallsInto(F.Entries[Node]))
    return std::nullopt;
  return Node + 1;
}

void CFGBuilder::decodeBlock(uint32_t Node, CFGNode &N) {
  N.Entry = F.Entries[Node];
  std::optional<Instruction> Last;
  for (uint64_t A = Index.blockStart(N.Entry); A < Index.blockEnd(N.Entry);
       A = Last->end()) {
    Last = Decoder.decode(A);
    if (!Last) {
      N.Exits = true;
      return;
    }
    ++N.Instructions;
    N.Branches += Last->isBranch();
    addTransfer(*Last, N);
  }
  addFallThrough(Node, N, Last);
}

/// A block can end in two jumps (`jcc X; jmp Y`): every direct jump of the
/// block goes to a successor, or to another function (a tail call).
void CFGBuilder::addTransfer(const Instruction &I, CFGNode &N) const {
  if (!I.Target)
    return;
  if (I.Kind == InstrKind::Call) {
    N.Calls.push_back({I.Address, *I.Target, /*TailCall=*/false});
    return;
  }
  if (I.Kind != InstrKind::UncondBranch && I.Kind != InstrKind::CondBranch)
    return;
  if (std::optional<uint32_t> Target = nodeAt(*I.Target)) {
    N.addSuccessor(*Target);
    return;
  }
  N.Calls.push_back({I.Address, *I.Target, /*TailCall=*/true});
  N.Exits = true;
}

/// The last instruction decides whether control falls through to the next
/// block or leaves the function.
void CFGBuilder::addFallThrough(uint32_t Node, CFGNode &N,
                                const std::optional<Instruction> &Last) {
  InstrKind Kind = Last ? Last->Kind : InstrKind::Other;
  bool FallsThrough = !Last || !Last->isBarrier();
  // A call that ends a block the compiler says cannot fall through does
  // not return (abort, exit, __cxa_throw).
  if (Last && Last->isCall() &&
      !Index.match(N.Entry).block().has(metadata::CanFallThrough))
    FallsThrough = false;
  std::optional<uint32_t> Next = fallThrough(Node);
  if (FallsThrough && Next)
    N.addSuccessor(*Next);
  N.Returns = Kind == InstrKind::Return;
  N.IndirectJump = Kind == InstrKind::IndirectBranch;
  if ((FallsThrough && !Next) || N.Returns ||
      Kind == InstrKind::IndirectBranch || Kind == InstrKind::Trap ||
      (Last && Last->isCall() && !FallsThrough))
    N.Exits = true;
}

/// Replaces the successors found in the code with the map's PGO analysis
/// successor lists (block IDs, jump tables included), when it has them.
bool CFGBuilder::successorsFromMap(std::vector<CFGNode> &Nodes) const {
  const FunctionMap &Map = Index.match(F.Entries.front()).function();
  if (!Map.has(feature::BrProb) || !Map.PGO)
    return false;
  AnyKeyMap<uint32_t, uint32_t> NodeOfID;
  std::vector<const PGOBlock *> PGOOf(Nodes.size());
  for (uint32_t Node = 0; Node < Nodes.size(); ++Node) {
    BlockMatch M = Index.match(F.Entries[Node]);
    NodeOfID[M.ID] = Node;
    uint32_t Ordinal = M.Block;
    for (uint32_t R = 0; R < M.Range; ++R)
      Ordinal += Map.Ranges[R].Blocks.size();
    if (Ordinal >= Map.PGO->Blocks.size())
      return false;
    PGOOf[Node] = &Map.PGO->Blocks[Ordinal];
  }
  for (uint32_t Node = 0; Node < Nodes.size(); ++Node) {
    CFGNode &N = Nodes[Node];
    N.Successors.clear();
    for (const PGOSuccessor &S : PGOOf[Node]->Successors) {
      auto It = NodeOfID.find(S.ID);
      if (It == NodeOfID.end())
        return false;
      N.addSuccessor(It->second);
    }
    // A block with successors that also ends in a return, tail call or
    // indirect jump still leaves the function there.
    N.Exits = N.Successors.empty() || N.Returns || N.Exits;
  }
  return true;
}

std::vector<CFGNode> CFGBuilder::build(bool &FromMap) {
  std::vector<CFGNode> Nodes(F.Entries.size());
  for (uint32_t Node = 0; Node < Nodes.size(); ++Node)
    decodeBlock(Node, Nodes[Node]);
  FromMap = successorsFromMap(Nodes);
  return Nodes;
}

} // namespace

std::vector<CFGNode> buildFunctionCFG(const FunctionBlocks &F,
                                      const AddressIndex &Index,
                                      const InstructionDecoder &Decoder,
                                      bool &FromMap) {
  return CFGBuilder(F, Index, Decoder).build(FromMap);
}

FlowNetwork flowNetwork(ArrayRef<CFGNode> Nodes, uint32_t Entry,
                        ArrayRef<std::optional<uint64_t>> Weights) {
  FlowNetwork Net;
  for (const std::optional<uint64_t> &W : Weights)
    if (W && Log2_64_Ceil(*W + 1) > 42)
      Net.Shift = std::max(Net.Shift, Log2_64_Ceil(*W + 1) - 42);
  FlowFunction &Func = Net.Func;
  uint64_t Sink = Nodes.size() + 1;
  Func.Blocks.resize(Nodes.size() + 2);
  for (uint64_t B = 0; B < Func.Blocks.size(); ++B)
    Func.Blocks[B].Index = B;
  auto AddJump = [&](uint64_t From, uint64_t To) {
    FlowJump J;
    J.Source = From;
    J.Target = To;
    Func.Jumps.push_back(J);
  };
  for (uint32_t Node = 0; Node < Nodes.size(); ++Node) {
    for (uint32_t S : Nodes[Node].Successors) {
      AddJump(Node + 1, S + 1);
    }
    if (Nodes[Node].Exits)
      AddJump(Node + 1, Sink);
    if (Weights[Node]) {
      FlowBlock &B = Func.Blocks[Node + 1];
      B.HasUnknownWeight = false;
      B.Weight = *Weights[Node] >> Net.Shift;
    }
  }
  // The source feeds the entry, then, in address order, every node the
  // nodes fed so far do not reach (a landing pad, a block only reached by
  // itself, a loop no path enters), so that every node has a path in.
  std::vector<bool> Reached(Nodes.size());
  std::vector<uint32_t> Work;
  auto Feed = [&](uint32_t Node) {
    AddJump(0, Node + 1);
    Reached[Node] = true;
    for (Work = {Node}; !Work.empty();) {
      uint32_t N = Work.back();
      Work.pop_back();
      for (uint32_t S : Nodes[N].Successors)
        if (!Reached[S]) {
          Reached[S] = true;
          Work.push_back(S);
        }
    }
  };
  Feed(Entry);
  for (uint32_t Node = 0; Node < Nodes.size(); ++Node)
    if (!Reached[Node])
      Feed(Node);
  for (FlowJump &J : Func.Jumps) {
    Func.Blocks[J.Source].SuccJumps.push_back(&J);
    Func.Blocks[J.Target].PredJumps.push_back(&J);
  }
  return Net;
}

namespace {

/// Whether every block of \p Func has a way to its last block, the sink.
bool everyBlockExits(const FlowFunction &Func) {
  std::vector<bool> Exits(Func.Blocks.size());
  Exits.back() = true;
  std::vector<uint64_t> Back = {Func.Blocks.size() - 1};
  while (!Back.empty()) {
    uint64_t B = Back.back();
    Back.pop_back();
    for (const FlowJump *J : Func.Blocks[B].PredJumps)
      if (!Exits[J->Source]) {
        Exits[J->Source] = true;
        Back.push_back(J->Source);
      }
  }
  return llvm::all_of(Exits, [](bool E) { return E; });
}

} // namespace

void applyProfi(ProfiParams Params, FlowNetwork &Net) {
  Params.JoinIslands = Params.JoinIslands && everyBlockExits(Net.Func);
  applyFlowInference(Params, Net.Func);
}

void assignFlow(const FlowNetwork &Net, ArrayRef<CFGNode> Nodes,
                BlockProfile &P) {
  const FlowFunction &Func = Net.Func;
  uint64_t Sink = Nodes.size() + 1;
  for (uint32_t Node = 0; Node < Nodes.size(); ++Node) {
    const CFGNode &N = Nodes[Node];
    uint64_t Flow = Func.Blocks[Node + 1].Flow << Net.Shift;
    P.Counts[N.Entry] = Flow;
    if (!Flow)
      continue;
    for (const FlowJump *J : Func.Blocks[Node + 1].SuccJumps)
      if (J->Target != Sink && J->Flow)
        P.Edges[{N.Entry, Nodes[J->Target - 1].Entry}].Count += J->Flow
                                                                << Net.Shift;
    for (const CallKey &C : N.Calls)
      P.Calls[C].Count += Flow;
    if (N.Returns)
      P.Returns[N.Entry] += Flow;
  }
}

void assignWeights(const FlowNetwork &Net, ArrayRef<CFGNode> Nodes,
                   BlockProfile &P) {
  for (uint32_t Node = 0; Node < Nodes.size(); ++Node)
    P.Counts[Nodes[Node].Entry] = Net.Func.Blocks[Node + 1].Weight << Net.Shift;
}

} // namespace bbmap
