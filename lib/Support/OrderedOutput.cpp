//===- OrderedOutput.cpp - parallel pieces of output, in order ------------===//
//
// A queue of pending entries (tasks' futures and ready pieces) drained from
// the front: whatever is ready when nothing precedes it goes straight to
// the stream.
//
//===----------------------------------------------------------------------===//

#include "bbmap/Support/OrderedOutput.h"
#include "llvm/Support/Threading.h"

using namespace llvm;

namespace bbmap {

OrderedOutput::OrderedOutput(raw_ostream &OS, unsigned Threads)
    : OS(OS), Threads(std::max(1u, Threads)), Window(4 * this->Threads) {
  if (this->Threads == 1)
    return;
  Pool =
      std::make_unique<DefaultThreadPool>(hardware_concurrency(this->Threads));
}

OrderedOutput::~OrderedOutput() { finish(); }

void OrderedOutput::emit(const OutputPiece &Piece) {
  if (Piece.Text)
    OS << StringRef(Piece.Text->data(), Piece.Text->size());
  if (Piece.After) {
    // Actions print to other streams: what precedes them must be out.
    OS.flush();
    Piece.After();
  }
}

void OrderedOutput::popFront() {
  Entry &E = Pending.front();
  if (E.Done) {
    // LLVM's pool runs a task that no worker has started yet on the thread
    // that waits for it.
    E.Done->wait();
    --InFlight;
    emit(*E.Result);
    if (E.Result->Text && Free.size() < Window)
      Free.push_back(std::move(E.Result->Text));
  } else {
    emit(E.Ready);
  }
  Pending.pop_front();
}

std::unique_ptr<TextPiece> OrderedOutput::takeBuffer() {
  if (Free.empty()) {
    // Room for a typical piece at once, so that it rarely moves as it grows.
    auto Text = std::make_unique<TextPiece>();
    Text->reserve(PieceCapacity);
    return Text;
  }
  std::unique_ptr<TextPiece> Text = std::move(Free.back());
  Free.pop_back();
  Text->clear();
  return Text;
}

void OrderedOutput::submit(std::function<void(TextPiece &)> Task,
                           std::function<void()> After) {
  if (!Pool) {
    OutputPiece Piece{takeBuffer(), std::move(After)};
    Task(*Piece.Text);
    emit(Piece);
    Free.push_back(std::move(Piece.Text));
    return;
  }
  while (InFlight >= Window)
    popFront();
  auto Result = std::make_shared<OutputPiece>();
  Result->Text = takeBuffer();
  Result->After = std::move(After);
  std::shared_future<void> Done =
      Pool->async([Task = std::move(Task), Result] { Task(*Result->Text); });
  Pending.push_back({std::move(Done), std::move(Result), {}});
  ++InFlight;
}

void OrderedOutput::write(StringRef Text) {
  if (Text.empty())
    return;
  if (Pending.empty())
    OS << Text;
  else if (!Pending.back().Done && Pending.back().Ready.Text &&
           !Pending.back().Ready.After)
    llvm::append_range(*Pending.back().Ready.Text, Text);
  else
    Pending.push_back(
        {std::nullopt,
         nullptr,
         {std::make_unique<TextPiece>(Text.begin(), Text.end()), {}}});
}

void OrderedOutput::then(std::function<void()> Action) {
  if (Pending.empty()) {
    OS.flush();
    return Action();
  }
  if (!Pending.back().Done && !Pending.back().Ready.After)
    Pending.back().Ready.After = std::move(Action);
  else
    Pending.push_back({std::nullopt, nullptr, {{}, std::move(Action)}});
}

void OrderedOutput::finish() {
  while (!Pending.empty())
    popFront();
  OS.flush();
}

} // namespace bbmap
