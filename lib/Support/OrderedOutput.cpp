//===- OrderedOutput.cpp - parallel pieces of output, in order ------------===//
//
// Pieces wait in a map by number. A thread that leaves one there becomes
// the writer if no other thread is writing: it writes, without the lock,
// every piece from the next number on that has arrived, and the pieces that
// arrive meanwhile.
//
//===----------------------------------------------------------------------===//

#include "bbmap/Support/OrderedOutput.h"
#include "llvm/Support/Threading.h"

using namespace llvm;

namespace bbmap {

namespace {
/// Room for a typical piece, so that it rarely moves as it grows.
constexpr size_t PieceCapacity = 1 << 20;
} // namespace

OrderedOutput::OrderedOutput(raw_ostream &OS, unsigned Threads)
    : OS(OS), Threads(std::max(1u, Threads)), Window(4 * this->Threads) {
  if (this->Threads > 1)
    Pool = std::make_unique<DefaultThreadPool>(
        hardware_concurrency(this->Threads));
}

OrderedOutput::~OrderedOutput() { finish(); }

std::unique_ptr<TextPiece> OrderedOutput::takeBuffer() {
  if (FreeBuffers.empty()) {
    auto Text = std::make_unique<TextPiece>();
    Text->reserve(PieceCapacity);
    return Text;
  }
  std::unique_ptr<TextPiece> Text = std::move(FreeBuffers.back());
  FreeBuffers.pop_back();
  Text->clear();
  return Text;
}

void OrderedOutput::emit(StringRef Text, const std::function<void()> &After) {
  OS << Text;
  if (After) {
    // Actions print to other streams: what precedes them must be out.
    OS.flush();
    After();
  }
}

void OrderedOutput::writeWaiting(std::unique_lock<std::mutex> &L) {
  for (auto It = Waiting.find(NextToWrite); It != Waiting.end();
       It = Waiting.find(NextToWrite)) {
    Piece Next = std::move(It->second);
    Waiting.erase(It);
    L.unlock();
    emit(Next.Text ? StringRef(Next.Text->data(), Next.Text->size()) : "",
         Next.After);
    L.lock();
    if (Next.Text)
      FreeBuffers.push_back(std::move(Next.Text));
    TasksInFlight -= Next.IsTask;
    ++NextToWrite;
  }
  Writing = false;
  Written.notify_all();
}

void OrderedOutput::deposit(uint64_t Number, Piece P) {
  std::unique_lock<std::mutex> L(Lock);
  Waiting.emplace(Number, std::move(P));
  if (Writing)
    return;
  Writing = true;
  writeWaiting(L);
}

void OrderedOutput::submit(std::function<void(TextPiece &)> Task,
                           std::function<void()> After) {
  uint64_t Number;
  std::unique_ptr<TextPiece> Text;
  {
    std::unique_lock<std::mutex> L(Lock);
    Written.wait(L, [&] { return TasksInFlight < Window; });
    Number = NextNumber++;
    ++TasksInFlight;
    Text = takeBuffer();
  }
  auto Run = [this, Number, Task = std::move(Task), After = std::move(After),
              Text = std::shared_ptr<TextPiece>(std::move(Text))]() mutable {
    Task(*Text);
    deposit(Number, Piece{std::make_unique<TextPiece>(std::move(*Text)),
                          std::move(After), /*IsTask=*/true});
  };
  if (!Pool)
    return Run();
  // The pool starts tasks in submission order.
  Pool->async(std::move(Run));
}

void OrderedOutput::queue(StringRef Text, std::function<void()> After) {
  std::unique_lock<std::mutex> L(Lock);
  uint64_t Number = NextNumber++;
  if (Number == NextToWrite && !Writing) {
    // Nothing precedes it: written at once, without a copy.
    Writing = true;
    L.unlock();
    emit(Text, After);
    L.lock();
    ++NextToWrite;
    return writeWaiting(L);
  }
  L.unlock();
  Piece P;
  if (!Text.empty())
    P.Text = std::make_unique<TextPiece>(Text.begin(), Text.end());
  P.After = std::move(After);
  deposit(Number, std::move(P));
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
  std::unique_lock<std::mutex> L(Lock);
  Written.wait(L, [&] { return NextToWrite == NextNumber && !Writing; });
  OS.flush();
}

} // namespace bbmap
