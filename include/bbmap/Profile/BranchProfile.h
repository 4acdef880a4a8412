//===- BranchProfile.h - address-level profile ------------------*- C++ -*-===//
//
// The model every profile reader fills: what the processor reported, as
// addresses of the profiled binary, before anything is charged to a basic
// block. It follows BOLT 22's pre-aggregated entry types, the richest of
// the inputs: a trace is an optional taken branch followed by the
// fall-through run that starts at its target; a branch alone, a run alone
// and a run entered from outside the binary are special cases of it. IP
// samples are kept apart. Every reader sums the counts of identical
// records, so the model holds each distinct record once.
//
// Threading: plain data: const access may be concurrent, writes need one owner.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_PROFILE_BRANCHPROFILE_H
#define BBMAP_PROFILE_BRANCHPROFILE_H

#include <cstdint>
#include <string>
#include <vector>

namespace bbmap {

/// What a Trace describes, after the pre-aggregated letter that spells it.
enum class TraceKind : uint8_t {
  /// `B`: a taken branch From -> To; no fall-through run.
  Branch,
  /// `F`: a fall-through run To ... FallthroughEnd; no branch.
  Fallthrough,
  /// `f`: a run entered from outside the profiled binary.
  ExternalOrigin,
  /// `r`: a run entered by a return from outside the profiled binary.
  ExternalReturn,
  /// `T` (and each pair of a branch stack): the branch From -> To, then the
  /// run To ... FallthroughEnd.
  BranchAndFallthrough,
  /// `R`: as BranchAndFallthrough, where the branch is a return.
  Return,
};

/// What a trace's branch is, when the record knows it better than the
/// profiled binary's bytes do. A profile translated from a BOLTed binary
/// (BATProfileTranslator.h) names its branches after the BOLTed
/// instructions: a jump BOLT added where the input fell through has no
/// instruction in the input binary, and its source there may be a call.
enum class BranchSource : uint8_t {
  /// Classify the branch by decoding its source instruction (every reader).
  Decode,
  /// A call: a call site, not a CFG edge.
  Call,
  /// A return: no CFG edge.
  Return,
  /// Neither: a CFG edge (taken or fall-through) or a tail call.
  Jump,
};

/// One aggregated record. Addresses are virtual addresses of the profiled
/// binary as its program headers lay it out (a reader of a running
/// process's addresses subtracts the load bias first).
struct Trace {
  /// Branch source; meaningful when the kind has a branch.
  uint64_t From = 0;
  /// Branch target, which is also where the run starts.
  uint64_t To = 0;
  /// Address of the run's last instruction (the next taken branch's
  /// source); meaningful when the kind has a run.
  uint64_t FallthroughEnd = 0;
  uint64_t Count = 0;
  uint64_t Mispreds = 0;
  /// Set on an end that lies outside the profiled binary (`X:` locations,
  /// addresses of other objects).
  bool FromExternal = false;
  bool ToExternal = false;
  /// Set on the newest entry of a branch stack that the next one repeats,
  /// and on that next one (whose run then ends at its own source). LBR
  /// sometimes repeats its newest entry: where that run cannot run, the
  /// newer entry is the hardware's duplicate (BlockProfile.h).
  bool Repeated = false;
  TraceKind Kind = TraceKind::Branch;
  /// How to classify the branch; a Return trace is a return whatever this
  /// says.
  BranchSource Source = BranchSource::Decode;

  bool hasBranch() const {
    return Kind == TraceKind::Branch ||
           Kind == TraceKind::BranchAndFallthrough || Kind == TraceKind::Return;
  }
  bool hasFallthrough() const { return Kind != TraceKind::Branch; }
};

/// An instruction-pointer sample (`S` lines, perf IP samples).
struct Sample {
  uint64_t Address = 0;
  uint64_t Count = 0;
};

/// A sampled branch operation (ARM SPE), with the start of the straight
/// run that ended at it when the record has it (the previous branch
/// target: FEAT_SPEv1p2).
struct BranchSample {
  uint64_t Address = 0;
  /// 0 when unknown.
  uint64_t RunStart = 0;
  uint64_t Count = 0;
};

/// Records a reader skipped, and why; reported, never silently lost.
struct SkippedRecords {
  /// Records of another binary (a `buildid:` prefix or an mmap that is not
  /// the profiled binary).
  uint64_t OtherBinary = 0;
  /// Records with no end inside the profiled binary.
  uint64_t Outside = 0;
};

/// What the readers read before summing identical records, counted as
/// perf2bolt counts it for its summary.
struct ReadCounts {
  /// Pre-aggregated text: the records (lines) read, `E` lines included.
  uint64_t Lines = 0;
  /// perf: the samples read, of every process.
  uint64_t Samples = 0;
  /// perf: the samples of processes that map the binary (IP samples: with
  /// an IP other than 0).
  uint64_t BinarySamples = 0;
  /// perf: the branch stack entries of those, those with an end in kernel
  /// code left out (perf2bolt's --ignore-interrupt-lbr).
  uint64_t StackEntries = 0;
  /// perf: those of them without a branch stack.
  uint64_t SamplesWithoutStack = 0;
  /// perf: the runs of those stacks (an entry's target to the next newer
  /// entry's source) that start or end outside the binary. No trace holds
  /// them; perf2bolt counts them among its traces, as out of range.
  uint64_t ExternalRuns = 0;

  void add(const ReadCounts &Other) {
    Lines += Other.Lines;
    Samples += Other.Samples;
    BinarySamples += Other.BinarySamples;
    StackEntries += Other.StackEntries;
    SamplesWithoutStack += Other.SamplesWithoutStack;
    ExternalRuns += Other.ExternalRuns;
  }
};

/// Everything one profile input holds.
struct BranchProfile {
  /// Event names (`E` lines, the `no_lbr` header, perf's event).
  std::vector<std::string> Events;
  std::vector<Trace> Traces;
  std::vector<Sample> Samples;
  /// ARM SPE: each sampled branch operation, taken or not (one per
  /// record). Every execution of a branch is sampled with the same chance,
  /// so the samples of a block's branches stand for the block's executions
  /// (and, through the runs, those of the blocks without a branch that
  /// fall into it): the weights counts are inferred from
  /// (countBranchSamples, FlowInference.h), while Traces hold the records
  /// as perf2bolt --spe reads them.
  std::vector<BranchSample> BranchSamples;
  /// True when the input had branch information (LBR-style), false for
  /// IP samples only.
  bool HasBranches = false;
  /// True when the records were made by translating a BOLTed binary's
  /// profile (BATProfileTranslator.h) rather than read: they are placed on
  /// the input binary's code by the translation, so their ends are not
  /// judged against it (BlockProfile.h, FunctionFit).
  bool Translated = false;
  SkippedRecords Skipped;
  ReadCounts Read;
};

} // namespace bbmap

#endif // BBMAP_PROFILE_BRANCHPROFILE_H
