//===- OrderedOutput.cpp - parallel pieces of output, in order ------------===//
//
// Pieces are numbered; the stream is written under one lock, in number
// order: by the worker whose turn it is, and by whoever writes the piece
// just before a queued ready piece.
//
//===----------------------------------------------------------------------===//

#include "bbmap/Support/OrderedOutput.h"
#include "llvm/Support/Threading.h"

using namespace llvm;

namespace bbmap {

namespace {
/// A worker's text, reused from task to task.
thread_local TextPiece WorkerText;
} // namespace

OrderedOutput::OrderedOutput(raw_ostream &OS, unsigned Threads)
    : OS(OS), Threads(std::max(1u, Threads)), Window(4 * this->Threads) {
  if (this->Threads > 1)
    Pool = std::make_unique<DefaultThreadPool>(
        hardware_concurrency(this->Threads));
}

OrderedOutput::~OrderedOutput() { finish(); }

void OrderedOutput::emit(StringRef Text, const std::function<void()> &After) {
  OS << Text;
  if (After) {
    // Actions print to other streams: what precedes them must be out.
    OS.flush();
    After();
  }
}

void OrderedOutput::emitReady() {
  for (auto It = Ready.find(NextToWrite); It != Ready.end();
       It = Ready.find(NextToWrite)) {
    emit(StringRef(It->second.Text.data(), It->second.Text.size()),
         It->second.After);
    Ready.erase(It);
    ++NextToWrite;
  }
}

void OrderedOutput::emitTask(uint64_t Number, const TextPiece &Text,
                             const std::function<void()> &After) {
  std::unique_lock<std::mutex> L(Lock);
  Turn.wait(L, [&] { return NextToWrite == Number; });
  emit(StringRef(Text.data(), Text.size()), After);
  ++NextToWrite;
  --TasksInFlight;
  emitReady();
  Turn.notify_all();
}

void OrderedOutput::submit(std::function<void(TextPiece &)> Task,
                           std::function<void()> After) {
  if (!Pool) {
    InlineText.clear();
    Task(InlineText);
    std::lock_guard<std::mutex> L(Lock);
    return emit(StringRef(InlineText.data(), InlineText.size()), After);
  }
  uint64_t Number;
  {
    std::unique_lock<std::mutex> L(Lock);
    Turn.wait(L, [&] { return TasksInFlight < Window; });
    Number = NextNumber++;
    ++TasksInFlight;
  }
  // The pool starts tasks in submission order, so every task numbered
  // below this one has started by the time this one waits for its turn.
  Pool->async([this, Number, Task = std::move(Task), After = std::move(After)] {
    WorkerText.clear();
    Task(WorkerText);
    emitTask(Number, WorkerText, After);
  });
}

void OrderedOutput::queue(StringRef Text, std::function<void()> After) {
  std::lock_guard<std::mutex> L(Lock);
  if (NextToWrite == NextNumber)
    return emit(Text, After);
  // Joins the ready piece just queued, if it has no action yet.
  auto Last = Ready.find(NextNumber - 1);
  if (Last != Ready.end() && !Last->second.After) {
    llvm::append_range(Last->second.Text, Text);
    Last->second.After = std::move(After);
    return;
  }
  ReadyPiece &Piece = Ready[NextNumber++];
  llvm::append_range(Piece.Text, Text);
  Piece.After = std::move(After);
}

void OrderedOutput::write(StringRef Text) {
  if (!Text.empty())
    queue(Text, {});
}

void OrderedOutput::then(std::function<void()> Action) {
  queue("", std::move(Action));
}

void OrderedOutput::finish() {
  if (Pool)
    Pool->wait();
  std::lock_guard<std::mutex> L(Lock);
  emitReady();
  OS.flush();
}

} // namespace bbmap
