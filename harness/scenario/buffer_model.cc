#include "scenario/buffer_model.h"

#include <algorithm>
#include <cstring>

namespace conformance::scenario {

std::optional<Difference> FirstDifference(const ExpectedBytes& expected, const uint8_t* actual) {
  std::optional<Difference> first;
  for (uint64_t i = 0; i < expected.bytes.size(); ++i) {
    if (!expected.known[i] || expected.bytes[i] == actual[i]) continue;
    if (!first) first = Difference{i, expected.bytes[i], actual[i], 0};
    ++first->differing_bytes;
  }
  return first;
}

void BufferModel::Page::MakeExplicit() {
  if (bytes) return;
  bytes = std::make_unique<uint8_t[]>(kPageBytes);
  known = std::make_unique<bool[]>(kPageBytes);
  std::memset(bytes.get(), fill, kPageBytes);
  std::memset(known.get(), uniform ? 1 : 0, kPageBytes);
  uniform = false;
}

BufferModel::Page& BufferModel::PageAt(uint64_t page) {
  auto& slot = pages_[page];
  if (!slot) slot = std::make_unique<Page>();
  return *slot;
}

// Every operation walks the range one page at a time: one lookup per 4 KiB, not per byte.
template <typename PerPage>
void ForEachPage(uint64_t offset, uint64_t size, uint64_t page_bytes, PerPage&& per_page) {
  uint64_t done = 0;
  while (done < size) {
    const uint64_t at = offset + done;
    const uint64_t in_page = at % page_bytes;
    const uint64_t chunk = std::min(size - done, page_bytes - in_page);
    per_page(at / page_bytes, in_page, done, chunk);
    done += chunk;
  }
}

void BufferModel::Write(uint64_t offset, const uint8_t* bytes, uint64_t size) {
  ForEachPage(offset, size, kPageBytes,
              [&](uint64_t page_index, uint64_t in_page, uint64_t done, uint64_t chunk) {
                Page& page = PageAt(page_index);
                page.MakeExplicit();
                std::memcpy(page.bytes.get() + in_page, bytes + done, chunk);
                std::memset(page.known.get() + in_page, 1, chunk);
              });
}

void BufferModel::Fill(uint64_t offset, uint64_t size, const std::vector<uint8_t>& unit) {
  ForEachPage(offset, size, kPageBytes,
              [&](uint64_t page_index, uint64_t in_page, uint64_t done, uint64_t chunk) {
                Page& page = PageAt(page_index);
                if (unit.size() == 1 && chunk == kPageBytes) {
                  page.bytes.reset();
                  page.known.reset();
                  page.uniform = true;
                  page.fill = unit[0];
                  return;
                }
                page.MakeExplicit();
                if (unit.size() == 1) {
                  std::memset(page.bytes.get() + in_page, unit[0], chunk);
                } else {
                  for (uint64_t i = 0; i < chunk; ++i)
                    page.bytes[in_page + i] = unit[(done + i) % unit.size()];
                }
                std::memset(page.known.get() + in_page, 1, chunk);
              });
}

void BufferModel::Write(uint64_t offset, const ExpectedBytes& bytes) {
  ForEachPage(offset, bytes.bytes.size(), kPageBytes,
              [&](uint64_t page_index, uint64_t in_page, uint64_t done, uint64_t chunk) {
                if (!pages_.contains(page_index)) {
                  bool any_known = false;
                  for (uint64_t i = 0; i < chunk && !any_known; ++i)
                    any_known = bytes.known[done + i];
                  if (!any_known) return;  // unknown onto unknown: nothing to record
                }
                Page& page = PageAt(page_index);
                page.MakeExplicit();
                for (uint64_t i = 0; i < chunk; ++i) {
                  // Copying unknown bytes makes the destination unknown.
                  page.bytes[in_page + i] = bytes.bytes[done + i];
                  page.known[in_page + i] = bytes.known[done + i];
                }
              });
}

ExpectedBytes BufferModel::Read(uint64_t offset, uint64_t size) const {
  ExpectedBytes out{std::vector<uint8_t>(size), std::vector<bool>(size)};
  ForEachPage(offset, size, kPageBytes,
              [&](uint64_t page_index, uint64_t in_page, uint64_t done, uint64_t chunk) {
                auto it = pages_.find(page_index);
                if (it == pages_.end()) return;
                const Page& page = *it->second;
                if (page.uniform) {
                  std::memset(out.bytes.data() + done, page.fill, chunk);
                  for (uint64_t i = 0; i < chunk; ++i) out.known[done + i] = true;
                  return;
                }
                if (!page.bytes) return;
                std::memcpy(out.bytes.data() + done, page.bytes.get() + in_page, chunk);
                for (uint64_t i = 0; i < chunk; ++i) out.known[done + i] = page.known[in_page + i];
              });
  return out;
}

}  // namespace conformance::scenario
