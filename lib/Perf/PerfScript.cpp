//===- PerfScript.cpp - perf script's text of a perf.data file ------------===//
//
// The reading thread turns each delivered record into a ScriptLine: the
// records other than samples (few) as finished text, a sample as what its
// line needs (the PID, the event's padded name, the IP or where the branch
// stack is). A task formats a batch of lines into a piece of text. Lines
// point into the file; the stacks of samples from compressed data, whose
// bytes do not stay, are copied into their batch. The mapped pages of the
// file go back once no batch being filled or formatted points into them.
// A file with ARM SPE data is read through an SpeStream, whose records
// become lines of their own (their values copied into the line).
//
//===----------------------------------------------------------------------===//

#include "bbmap/Perf/PerfScript.h"
#include "bbmap/Perf/EventName.h"
#include "bbmap/Perf/EventQueue.h"
#include "bbmap/Perf/SampleDelivery.h"
#include "bbmap/Perf/SpeTrace.h"
#include "bbmap/Support/ByteReader.h"
#include "bbmap/Support/OutputBuffer.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/Allocator.h"
#include "llvm/Support/Format.h"
#include <cinttypes>
#include <cstring>
#include <memory>
#include <mutex>
#include <set>
#include <vector>

using namespace llvm;

namespace bbmap::perf {

namespace {

/// perf 6.1's branch type names (util/branch.c), by type and by new_type.
constexpr StringRef BranchTypeNames[] = {
    "N/A", "COND",    "UNCOND", "IND",       "CALL",     "IND_CALL",
    "RET", "SYSCALL", "SYSRET", "COND_CALL", "COND_RET", "ERET",
    "IRQ", "SERROR",  "NO_TX",  ""};
constexpr StringRef BranchNewTypeNames[] = {
    "FAULT_ALGN", "FAULT_DATA", "FAULT_INST", "ARCH_1",
    "ARCH_2",     "ARCH_3",     "ARCH_4",     "ARCH_5"};
constexpr unsigned BranchTypeExtendABI = 15;
/// The bytes of a branch stack entry as perf script reads them.
constexpr size_t BranchEntrySize = 24;
/// Room for the text of one entry, " 0x%lx/0x%lx/P/X/A/%u/TYPE ": at most
/// 62 bytes, and the flags' copy writes one byte more than it keeps.
constexpr size_t MaxBranchText = 64;

/// One line of perf script text, decoded in delivery order.
struct ScriptLine {
  enum LineKind : uint8_t {
    /// Head is the whole line (records other than samples).
    Text,
    /// A sample's IP.
    IP,
    /// A sample's branch stack; without entries, the head alone.
    Branches,
    /// A sample's ADDR (-F ...,addr), then its IP.
    AddrIP,
    /// A sample's ADDR, without IP.
    AddrOnly,
  };
  LineKind Kind = Text;
  /// The event has TID: the line starts with the PID.
  bool HasPID = false;
  int32_t PID = 0;
  /// Text: the line; IP and Branches: the event's name, right-justified to
  /// the widest, and ": ".
  StringRef Head;
  /// IP and AddrIP: the IP; Branches: the number of entries.
  uint64_t Value = 0;
  /// AddrIP and Addr: the ADDR.
  uint64_t Addr = 0;
  /// Branches: the entries, in the file's byte order.
  const uint8_t *Entries = nullptr;
};

/// The allocator of copied text. Not llvm::BumpPtrAllocator: in a sanitizer
/// or fuzz build, this file's (instrumented) instantiation of its slab
/// allocation poisons new slabs, and where the linker keeps it for all of
/// the program, LLVMSupport's uninstrumented users of BumpPtrAllocator
/// (llvm::yaml::Input, StringSaver) write into poisoned memory. Slabs of
/// another size make a type of their own, which no LLVM code shares.
using TextAllocator = BumpPtrAllocatorImpl<MallocAllocator, 64 * 1024>;

/// Lines formatted by one task, with what they point to.
struct ScriptBatch {
  std::vector<ScriptLine> Lines;
  /// The text of Text lines and the stacks of compressed samples.
  TextAllocator Held;
  /// The smallest file offset the lines point into (~0: none).
  uint64_t Oldest = ~0ULL;
  /// The bytes of the records delivered into the batch.
  size_t RecordBytes = 0;
};

/// A copy of \p Size bytes at \p Bytes in \p Alloc.
const uint8_t *copyInto(TextAllocator &Alloc, const void *Bytes, size_t Size) {
  void *Copy = Alloc.Allocate(Size, Align(8));
  std::memcpy(Copy, Bytes, Size);
  return static_cast<const uint8_t *>(Copy);
}

StringRef copyInto(TextAllocator &Alloc, StringRef Text) {
  return StringRef(
      reinterpret_cast<const char *>(copyInto(Alloc, Text.data(), Text.size())),
      Text.size());
}

/// How a file's branch entries read.
struct EntryStyle {
  ByteOrder Order;
  /// perf 6.1 reads a pipe of the other byte order with its events'
  /// needs_swap unset: branch flags keep their big-endian places.
  bool RawFlags = false;
};

/// perf's "%5d " (perf_sample__fprintf_start's pid).
char *putPID(char *P, int32_t PID) {
  uint64_t Magnitude = PID < 0 ? -int64_t(PID) : PID;
  for (unsigned Width = OutputBuffer::decimalDigits(Magnitude) + (PID < 0);
       Width < 5; ++Width)
    *P++ = ' ';
  if (PID < 0)
    *P++ = '-';
  P = OutputBuffer::putDecimal(P, Magnitude);
  *P++ = ' ';
  return P;
}

/// "/P/X/A/" by the four low bits of the flags (mispredicted, predicted,
/// in a transaction, aborted): perf's prediction letter is '-' for
/// neither, 'P' when predicted, else 'M'.
struct FlagTextTable {
  char Text[16][8] = {};
  constexpr FlagTextTable() {
    for (unsigned Bits = 0; Bits < 16; ++Bits) {
      const char Pred = !(Bits & 3) ? '-' : Bits & 2 ? 'P' : 'M';
      const char Fields[8] = {
          '/', Pred, '/', Bits & 4 ? 'X' : '-', '/', Bits & 8 ? 'A' : '-',
          '/', 0};
      for (unsigned I = 0; I < 8; ++I)
        Text[Bits][I] = Fields[I];
    }
  }
};
constexpr FlagTextTable FlagTexts;

/// "00" to "ff": hex digits two at a time.
struct HexPairTable {
  char Pairs[512] = {};
  constexpr HexPairTable() {
    for (unsigned I = 0; I < 256; ++I) {
      Pairs[2 * I] = "0123456789abcdef"[I >> 4];
      Pairs[2 * I + 1] = "0123456789abcdef"[I & 15];
    }
  }
};
constexpr HexPairTable HexPairs;

/// The lower-case hex digits of \p V (printf's "%lx").
char *putHexDigits(char *P, uint64_t V) {
  char *End = P + (64 - countl_zero(V | 1) + 3) / 4;
  char *D = End;
  for (; D - P >= 2; V >>= 8) {
    D -= 2;
    std::memcpy(D, &HexPairs.Pairs[2 * (V & 0xff)], 2);
  }
  if (D != P)
    *P = HexPairs.Pairs[2 * V + 1];
  return End;
}

/// "%*lx": \p V right-aligned in \p Width columns.
char *putHexColumn(char *P, uint64_t V, unsigned Width) {
  unsigned Digits = (64 - countl_zero(V | 1) + 3) / 4;
  for (unsigned Column = Digits; Column < Width; ++Column)
    *P++ = ' ';
  return putHexDigits(P, V);
}

/// " %16lx": the IP right-aligned in 16 columns.
char *putIP(char *P, uint64_t IP) { return putHexColumn(P, IP, 17); }

StringRef typeName(const BranchFlags &F) {
  if (F.Type == BranchTypeExtendABI)
    return F.NewType < std::size(BranchNewTypeNames)
               ? BranchNewTypeNames[F.NewType]
               : "(null)";
  return F.Type == 0 ? "" : BranchTypeNames[F.Type];
}

/// perf_sample__fprintf_brstack's text of one entry (print_bstack_flags).
char *putBranch(char *P, const uint8_t *Entry, EntryStyle Style) {
  uint64_t Flags = Style.Order.u64(Entry + 16);
  if (!Style.RawFlags && !Style.Order.Little)
    Flags = Style.Order.branchFlags(Flags);
  BranchEntry B{Style.Order.u64(Entry), Style.Order.u64(Entry + 8), Flags};
  BranchFlags F = B.flags();
  P = OutputBuffer::put(P, " 0x");
  P = putHexDigits(P, B.From);
  P = OutputBuffer::put(P, "/0x");
  P = putHexDigits(P, B.To);
  // Eight bytes copied, seven kept.
  std::memcpy(P, FlagTexts.Text[Flags & 15], 8);
  P += 7;
  if (F.Cycles < 10)
    *P++ = '0' + F.Cycles;
  else
    P = OutputBuffer::putDecimal(P, F.Cycles);
  *P++ = '/';
  // Most entries have no type: no copy of nothing.
  if (StringRef Type = typeName(F); !Type.empty())
    P = OutputBuffer::put(P, Type);
  *P++ = ' ';
  return P;
}

void formatLine(const ScriptLine &L, EntryStyle Style, OutputBuffer &Out) {
  if (L.HasPID)
    Out.commit(putPID(Out.reserve(OutputBuffer::MaxNumberSize + 1), L.PID));
  Out.append(L.Head);
  if (L.Kind == ScriptLine::Text)
    return;
  if (L.Kind == ScriptLine::IP) {
    Out.commit(putIP(Out.reserve(17), L.Value));
  } else if (L.Kind == ScriptLine::AddrIP || L.Kind == ScriptLine::AddrOnly) {
    char *P = putHexColumn(Out.reserve(16 + 17), L.Addr, 16);
    if (L.Kind == ScriptLine::AddrIP)
      P = putIP(P, L.Value);
    Out.commit(P);
  } else {
    for (uint64_t I = 0; I < L.Value; ++I) {
      // The entries come from memory, read once: asked for ahead.
      __builtin_prefetch(L.Entries + BranchEntrySize * I + 512);
      Out.commit(putBranch(Out.reserve(MaxBranchText),
                           L.Entries + BranchEntrySize * I, Style));
    }
  }
  char *P = Out.reserve(1);
  *P = '\n';
  Out.commit(P + 1);
}

/// \p Style is a copy: the reading thread writes next to the printer's.
void formatBatch(const ScriptBatch &B, EntryStyle Style, TextPiece &Text) {
  OutputBuffer Out(Text);
  for (const ScriptLine &L : B.Lines)
    formatLine(L, Style, Out);
  Out.flush();
}

/// One file's printer: what perf script keeps per session, the batch being
/// filled and the batches being formatted.
class ScriptPrinter {
public:
  ScriptPrinter(PerfFile &File, const PerfScriptOptions &Opts,
                OrderedOutput &Out)
      : File(File), Opts(Opts), Out(Out), Delivery(File),
        PipeSwapQuirk(File.isPipe() && !File.order().Little),
        Style{File.order(), PipeSwapQuirk} {}

  Error print() {
    Error E = Error::success();
    if (Opts.DecodeSpe && !Opts.BranchStack) {
      SpeStream Stream(File);
      Spe = &Stream;
      E = Stream.deliver([&](const Record &R) { return deliver(R); },
                         [&](const SpeSample &S) { return addSpe(S); }, {},
                         [&] { return inUse(); });
      Spe = nullptr;
    } else {
      E = deliverInOrder(
          File, [&](const Record &R) { return deliver(R); }, {},
          [&] { return inUse(); });
    }
    submit();
    Out.finish();
    return E;
  }

private:
  Error deliver(const Record &R);
  Error addSpe(const SpeSample &S);
  /// Fixes the name width and whether samples have the addr column, at
  /// the first sample.
  void startSamples();
  /// Counts \p Bytes of input into the batch, which goes when full.
  void account(size_t Bytes);
  Error addSample(const Record &R, const Event *E);
  Error addRecord(const Record &R, const Event *E);
  /// Writes the text of a record other than a sample, if perf script
  /// prints it.
  Error printRecord(const Record &R, const Event *E, raw_ostream &OS);
  Error printMMap(const Record &R, const Event *E, const SampleID &ID,
                  raw_ostream &OS);
  void printStart(const Event *E, int32_t PID, const SampleID &ID,
                  raw_ostream &OS) const;
  const std::string &nameOf(const Event &E);
  StringRef headOf(const Event &E);
  void submit();
  /// The smallest file offset a batch being filled or formatted points
  /// into.
  uint64_t inUse();

  PerfFile &File;
  const PerfScriptOptions &Opts;
  OrderedOutput &Out;
  SampleDelivery Delivery;
  SmallVector<const Event *, 4> DeliveredAs;
  /// perf 6.1 reads a pipe of the other byte order with its events'
  /// needs_swap unset: each u32 pair (pid/tid) comes out in the wrong
  /// halves and branch flags keep their big-endian places.
  bool PipeSwapQuirk;
  EntryStyle Style;
  /// The SPE records' stream while printing through one.
  SpeStream *Spe = nullptr;
  /// The first sample came: NameWidth and SpeText are fixed.
  bool Started = false;
  /// Samples print as -F pid,event,ip,addr with SPE records' samples.
  bool SpeText = false;
  /// The heads of the samples perf synthesizes from SPE records.
  StringRef BranchMissHead, InstructionsHead;
  /// perf's name_width: the longest event name, taken at the first sample.
  size_t NameWidth = 0;
  DenseMap<const Event *, std::string> Names;
  /// Each event's head, made at its first sample (after NameWidth).
  DenseMap<const Event *, StringRef> Heads;
  TextAllocator HeadText;
  SmallString<256> Line;
  ScriptBatch Current;
  std::mutex Lock;
  /// The Oldest offsets of the batches being formatted.
  std::multiset<uint64_t> Formatting;
};

const std::string &ScriptPrinter::nameOf(const Event &E) {
  auto [It, New] = Names.try_emplace(&E);
  if (New)
    It->second = eventName(E);
  return It->second;
}

/// The names of the events perf synthesizes for --itrace=bi1i.
constexpr StringRef BranchMissName = "branch-miss";
constexpr StringRef InstructionsName = "instructions";

void ScriptPrinter::startSamples() {
  if (Started)
    return;
  Started = true;
  for (const std::unique_ptr<Event> &Ev : File.events())
    NameWidth = std::max(NameWidth, nameOf(*Ev).size());
  SpeText = Spe && Spe->decoding();
  if (!SpeText)
    return;
  NameWidth =
      std::max({NameWidth, BranchMissName.size(), InstructionsName.size()});
  auto Head = [&](StringRef Name) {
    std::string Text;
    raw_string_ostream(Text) << right_justify(Name, NameWidth) << ": ";
    return copyInto(HeadText, Text);
  };
  BranchMissHead = Head(BranchMissName);
  InstructionsHead = Head(InstructionsName);
}

StringRef ScriptPrinter::headOf(const Event &E) {
  startSamples();
  auto [It, New] = Heads.try_emplace(&E);
  if (New) {
    std::string Head;
    raw_string_ostream(Head) << right_justify(nameOf(E), NameWidth) << ": ";
    It->second = copyInto(HeadText, Head);
  }
  return It->second;
}

Error ScriptPrinter::addSample(const Record &R, const Event *E) {
  if (!E)
    return decodeError(R.Offset, "sample names an event ID no attr has");
  Sample S;
  if (Error Err = File.decodeSample(R, *E, S))
    return Err;
  Delivery.deliver(S, DeliveredAs);
  if (DeliveredAs.empty())
    return Error::success();
  const uint8_t *Entries = S.Branches;
  if (Opts.BranchStack && S.BranchCount) {
    if (R.Compressed)
      Entries =
          copyInto(Current.Held, S.Branches, BranchEntrySize * S.BranchCount);
    else
      Current.Oldest = std::min(Current.Oldest, R.Offset);
  }
  for (const Event *As : DeliveredAs) {
    ScriptLine L;
    L.HasPID = As->Attr.has(sample::TID);
    L.PID = PipeSwapQuirk ? S.TID : S.PID;
    L.Head = headOf(*As);
    L.Kind = ScriptLine::Branches;
    if (Opts.BranchStack && As->Attr.has(sample::BranchStack)) {
      L.Value = S.BranchCount;
      L.Entries = Entries;
    } else if (SpeText) {
      // -F ...,addr: the ADDR of every sample (0 without one), perf 6.1
      // lets a file with the AUXTRACE feature print it.
      L.Kind =
          As->Attr.has(sample::IP) ? ScriptLine::AddrIP : ScriptLine::AddrOnly;
      L.Value = S.IP;
      L.Addr = S.Addr;
    } else if (!Opts.BranchStack && As->Attr.has(sample::IP)) {
      L.Kind = ScriptLine::IP;
      L.Value = S.IP;
    }
    Current.Lines.push_back(L);
  }
  return Error::success();
}

/// perf_sample__fprintf_start with the pid field alone: printed when the
/// event's samples carry TID (perf drops the field otherwise). perf script
/// takes the record's own pid where there is no sample_id_all trailer.
void ScriptPrinter::printStart(const Event *E, int32_t PID, const SampleID &ID,
                               raw_ostream &OS) const {
  if (!E || !E->Attr.has(sample::TID))
    return;
  if (E->Attr.sampleIDAll())
    PID = PipeSwapQuirk ? ID.TID : ID.PID;
  OS << format_decimal(PID, 5) << ' ';
}

Error ScriptPrinter::printMMap(const Record &R, const Event *E,
                               const SampleID &ID, raw_ostream &OS) {
  MMapEvent M;
  if (Error Err = File.decodeMMap(R, M))
    return Err;
  printStart(E, M.PID, ID, OS);
  OS << (M.Version2 ? "PERF_RECORD_MMAP2" : "PERF_RECORD_MMAP")
     << format(" %d/%d: [%#" PRIx64 "(%#" PRIx64 ") @ %#" PRIx64, M.PID, M.TID,
               M.Start, M.Length, M.PageOffset);
  if (!M.Version2) {
    OS << "]: " << (M.Executable ? 'x' : 'r') << ' ' << M.FileName << '\n';
    return Error::success();
  }
  if (M.HasBuildID)
    OS << " <" << toHex(M.BuildID, /*LowerCase=*/true) << '>';
  else
    OS << format(" %02x:%02x %" PRIu64 " %" PRIu64, M.Major, M.Minor, M.Inode,
                 M.InodeGeneration);
  // perf 6.1 does not swap prot and flags of a file of the other byte
  // order.
  uint32_t Prot = M.Prot, Flags = M.MapFlags;
  if (!File.order().Little) {
    Prot = byteswap(Prot);
    Flags = byteswap(Flags);
  }
  OS << "]: " << (Prot & 1 ? 'r' : '-') << (Prot & 2 ? 'w' : '-')
     << (Prot & 4 ? 'x' : '-') << (Flags & 1 ? 's' : 'p') << ' ' << M.FileName
     << '\n';
  return Error::success();
}

Error ScriptPrinter::printRecord(const Record &R, const Event *E,
                                 raw_ostream &OS) {
  bool MMap = R.Type == record::MMap || R.Type == record::MMap2;
  bool Task = R.Type == record::Comm || R.Type == record::Fork ||
              R.Type == record::Exit;
  if (!MMap && !Task)
    return Error::success();
  SampleID ID;
  if (E)
    if (Error Err = File.decodeSampleID(R, *E, ID))
      return Err;
  if (MMap)
    return printMMap(R, E, ID, OS);
  if (R.Type == record::Comm) {
    CommEvent C;
    if (Error Err = File.decodeComm(R, C))
      return Err;
    printStart(E, C.PID, ID, OS);
    OS << "PERF_RECORD_COMM" << (C.Exec ? " exec" : "") << ": " << C.Comm
       << format(":%d/%d\n", C.PID, C.TID);
    return Error::success();
  }
  TaskEvent T;
  if (Error Err = File.decodeTask(R, T))
    return Err;
  printStart(E, T.PID, ID, OS);
  OS << (R.Type == record::Fork ? "PERF_RECORD_FORK" : "PERF_RECORD_EXIT")
     << format("(%d:%d):(%d:%d)\n", T.PID, T.TID, T.PPID, T.PTID);
  return Error::success();
}

Error ScriptPrinter::addRecord(const Record &R, const Event *E) {
  Line.clear();
  raw_svector_ostream OS(Line);
  if (Error Err = printRecord(R, E, OS))
    return Err;
  if (!Line.empty()) {
    ScriptLine L;
    L.Head = copyInto(Current.Held, Line.str());
    Current.Lines.push_back(L);
  }
  return Error::success();
}

Error ScriptPrinter::deliver(const Record &R) {
  const Event *E = File.eventOf(R);
  if (Error Err = R.Type == record::Sample ? addSample(R, E) : addRecord(R, E))
    return Err;
  account(R.Bytes.size());
  return Error::success();
}

Error ScriptPrinter::addSpe(const SpeSample &S) {
  // arm_spe_sample's order: the branch miss, then the instruction.
  startSamples();
  ScriptLine L;
  L.HasPID = true;
  L.PID = S.PID;
  L.Kind = ScriptLine::AddrIP;
  L.Value = S.Record.PC;
  if (S.Record.mispredicted()) {
    L.Head = BranchMissHead;
    L.Addr = S.Record.Target;
    Current.Lines.push_back(L);
  }
  L.Head = InstructionsHead;
  L.Addr = S.Record.DataVirt;
  Current.Lines.push_back(L);
  // About the bytes of an SPE record: batches of SPE samples stay as
  // large as those of other records.
  account(64);
  return Error::success();
}

void ScriptPrinter::account(size_t Bytes) {
  Current.RecordBytes += Bytes;
  if (Current.RecordBytes >= Opts.BatchBytes)
    submit();
}

void ScriptPrinter::submit() {
  if (Current.Lines.empty()) {
    Current.RecordBytes = 0;
    return;
  }
  auto Batch = std::make_shared<ScriptBatch>(std::move(Current));
  Current = ScriptBatch();
  {
    std::lock_guard<std::mutex> Guard(Lock);
    Formatting.insert(Batch->Oldest);
  }
  Out.submit([this, Batch](TextPiece &Text) {
    formatBatch(*Batch, Style, Text);
    std::lock_guard<std::mutex> Guard(Lock);
    Formatting.erase(Formatting.find(Batch->Oldest));
  });
}

uint64_t ScriptPrinter::inUse() {
  std::lock_guard<std::mutex> Guard(Lock);
  return std::min(Current.Oldest,
                  Formatting.empty() ? ~uint64_t(0) : *Formatting.begin());
}

} // namespace

Error printPerfScript(PerfFile &File, const PerfScriptOptions &Opts,
                      OrderedOutput &Out) {
  return ScriptPrinter(File, Opts, Out).print();
}

} // namespace bbmap::perf
