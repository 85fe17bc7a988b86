// ratingd._core.factorize_rows: pd.factorize of string columns read row by row, in C++. A
// column is a numpy array of Python objects (pandas without pyarrow, or object columns) or
// the chunks of an Arrow string array (pandas' strings with pyarrow), read in place: no
// Python object is made per value, and none is copied.
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "python/src/records.h"

namespace ratingd::python {
namespace {

// One column's values by row: a str's UTF-8 text, or nothing for any other value. Read a
// block of rows at a time, so that the interning loop makes no call per value.
class StringColumn {
 public:
  virtual ~StringColumn() = default;
  virtual size_t size() const = 0;
  // The texts of rows [begin, end) into out[0 .. end - begin): a view of the value's UTF-8
  // text, or a view with a null data() for a value that is not a str.
  virtual void Texts(size_t begin, size_t end, std::string_view* out) = 0;
  // The str object of row i when the column holds Python objects (a unique is then
  // returned as its own object), else null.
  virtual PyObject* Object(size_t i) const = 0;
};

// A 1-D numpy array of objects (its buffer: PyObject pointers, strided as a DataFrame
// column's view may be), held while it lives.
class ObjectColumn : public StringColumn {
 public:
  explicit ObjectColumn(nb::handle array) {
    if (PyObject_GetBuffer(array.ptr(), &view_, PyBUF_FORMAT | PyBUF_STRIDES) != 0) {
      throw nb::python_error();
    }
    held_ = true;
    if (view_.ndim != 1 || view_.itemsize != sizeof(PyObject*) || view_.format == nullptr ||
        std::string(view_.format) != "O") {
      throw nb::type_error("internal: expected a 1-D numpy array of objects");
    }
    stride_ = view_.strides[0];
  }
  ~ObjectColumn() override {
    if (held_) PyBuffer_Release(&view_);
  }
  ObjectColumn(const ObjectColumn&) = delete;
  ObjectColumn& operator=(const ObjectColumn&) = delete;

  size_t size() const override { return static_cast<size_t>(view_.shape[0]); }

  void Texts(size_t begin, size_t end, std::string_view* out) override {
    // Each value is its own allocation, so the loop waits on memory: fetch ahead.
    constexpr size_t kAhead = 16;
    for (size_t i = begin; i < end; ++i, ++out) {
      if (i + kAhead < size()) {
        const char* ahead = reinterpret_cast<const char*>(Object(i + kAhead));
        __builtin_prefetch(ahead);
        __builtin_prefetch(ahead + 64);
      }
      PyObject* value = Object(i);
      if (PyUnicode_CheckExact(value) && PyUnicode_IS_COMPACT_ASCII(value)) {
        // Most names: the text follows the object's header, and is its own UTF-8.
        *out = std::string_view(static_cast<const char*>(PyUnicode_DATA(value)),
                                static_cast<size_t>(PyUnicode_GET_LENGTH(value)));
      } else {
        *out = Slow(value);
      }
    }
  }

  PyObject* Object(size_t i) const override {
    return *reinterpret_cast<PyObject* const*>(static_cast<const char*>(view_.buf) +
                                               static_cast<Py_ssize_t>(i) * stride_);
  }

 private:
  static std::string_view Slow(PyObject* value) {
    if (!PyUnicode_Check(value)) return {};
    Py_ssize_t n = 0;
    const char* utf8 = PyUnicode_AsUTF8AndSize(value, &n);
    if (utf8 == nullptr) {
      PyErr_Clear();  // a lone surrogate: not a name the readers take
      return {};
    }
    return std::string_view(utf8, static_cast<size_t>(n));
  }

  Py_buffer view_{};
  bool held_ = false;
  Py_ssize_t stride_ = 0;
};

// Arrow string chunks without nulls, each (offsets, data): value j of a chunk is
// data[offsets[j] .. offsets[j+1]). The arrays are the chunks' own buffers (Python keeps
// them alive for the call).
class ArrowColumn : public StringColumn {
 public:
  explicit ArrowColumn(const nb::list& chunks) {
    for (nb::handle chunk : chunks) {
      auto offsets = nb::cast<Column<int64_t>>(chunk[0]);
      auto data = nb::cast<nb::ndarray<const uint8_t, nb::ndim<1>, nb::c_contig, nb::device::cpu>>(
          chunk[1]);
      if (offsets.shape(0) == 0) continue;
      const size_t n = offsets.shape(0) - 1;
      for (size_t j = 0; j <= n; ++j) {
        if (offsets(j) < 0 || static_cast<size_t>(offsets(j)) > data.shape(0) ||
            (j > 0 && offsets(j) < offsets(j - 1))) {
          throw nb::value_error("internal: Arrow offsets out of range");
        }
      }
      chunks_.push_back({offsets.data(), reinterpret_cast<const char*>(data.data()), n});
      size_ += n;
    }
  }

  size_t size() const override { return size_; }

  void Texts(size_t begin, size_t end, std::string_view* out) override {
    for (size_t i = begin; i < end; ++i, ++out) {
      while (i >= start_ + chunks_[chunk_].rows) {  // rows are read in order
        start_ += chunks_[chunk_].rows;
        ++chunk_;
      }
      const Chunk& c = chunks_[chunk_];
      const size_t j = i - start_;
      const size_t n = static_cast<size_t>(c.offsets[j + 1] - c.offsets[j]);
      // An empty text still has a non-null view: null means "not a str".
      *out = n == 0 ? std::string_view("", 0) : std::string_view(c.data + c.offsets[j], n);
    }
  }

  PyObject* Object(size_t) const override { return nullptr; }

 private:
  struct Chunk {
    const int64_t* offsets;
    const char* data;
    size_t rows;
  };
  std::vector<Chunk> chunks_;
  size_t size_ = 0;
  size_t chunk_ = 0;  // the chunk of the last row read, and its first row
  size_t start_ = 0;
};

// The interning's hash: every byte, 8 at a time, the length mixed in. A column holds few
// distinct names and many rows, so the hash is taken once per row over a small table: this
// fixed-size loop (texts under 8 bytes by 4- or 1-byte loads; a memcpy of n bytes is a
// call) is what made the interning fast.
struct NameHash {
  size_t operator()(std::string_view s) const {
    const auto* p = reinterpret_cast<const unsigned char*>(s.data());
    const size_t n = s.size();
    uint64_t h = n * 0x9E3779B97F4A7C15ULL;
    const auto mix = [&h](uint64_t word) {
      h = (h ^ word) * 0xBF58476D1CE4E5B9ULL;
      h ^= h >> 29;
    };
    if (n >= 8) {
      uint64_t word = 0;
      for (size_t i = 0; i + 8 < n; i += 8) {
        std::memcpy(&word, p + i, 8);
        mix(word);
      }
      std::memcpy(&word, p + n - 8, 8);  // the last 8 bytes, overlapping the word before
      mix(word);
    } else if (n >= 4) {
      uint32_t first = 0;
      uint32_t last = 0;
      std::memcpy(&first, p, 4);
      std::memcpy(&last, p + n - 4, 4);
      mix(first | (uint64_t{last} << 32));
    } else if (n > 0) {
      mix(p[0] | (uint64_t{p[n / 2]} << 8) | (uint64_t{p[n - 1]} << 16));
    }
    return static_cast<size_t>(h ^ (h >> 32));
  }
};

// pd.factorize of the columns read row by row (row 0 of each column, then row 1, ...), str
// values only: (codes, uniques in order of first appearance), code -1 for a value that is
// not a str. A column is a numpy object array or a list of Arrow chunks (offsets, data).
nb::tuple FactorizeRows(const nb::list& columns) {
  std::vector<std::unique_ptr<StringColumn>> cols;
  for (nb::handle c : columns) {
    if (nb::isinstance<nb::list>(c)) {
      cols.push_back(std::make_unique<ArrowColumn>(nb::borrow<nb::list>(c)));
    } else {
      cols.push_back(std::make_unique<ObjectColumn>(c));
    }
  }
  const size_t n = cols.empty() ? 0 : cols[0]->size();
  for (const auto& c : cols) {
    if (c->size() != n) throw nb::value_error("internal: columns of different lengths");
  }
  std::vector<int64_t>* codes = new std::vector<int64_t>(n * cols.size());
  nb::capsule owner(codes, [](void* p) noexcept { delete static_cast<std::vector<int64_t>*>(p); });
  absl::flat_hash_map<std::string_view, int64_t, NameHash, std::equal_to<>> index;
  nb::list uniques;
  constexpr size_t kBlock = 512;
  std::vector<std::string_view> texts(kBlock * cols.size());
  for (size_t begin = 0; begin < n; begin += kBlock) {
    const size_t end = std::min(n, begin + kBlock);
    for (size_t c = 0; c < cols.size(); ++c) cols[c]->Texts(begin, end, &texts[c * kBlock]);
    for (size_t i = begin; i < end; ++i) {
      for (size_t c = 0; c < cols.size(); ++c) {
        const std::string_view text = texts[c * kBlock + (i - begin)];
        int64_t code = -1;
        if (text.data() != nullptr) {
          const auto [it, added] = index.try_emplace(text, static_cast<int64_t>(index.size()));
          if (added) {
            if (PyObject* object = cols[c]->Object(i); object != nullptr) {
              uniques.append(nb::handle(object));
            } else {
              PyObject* str =
                  PyUnicode_DecodeUTF8(text.data(), static_cast<Py_ssize_t>(text.size()), "strict");
              if (str == nullptr) throw nb::python_error();
              uniques.append(nb::steal(str));
            }
          }
          code = it->second;
        }
        (*codes)[i * cols.size() + c] = code;
      }
    }
  }
  return nb::make_tuple(
      nb::ndarray<nb::numpy, int64_t, nb::ndim<1>>(codes->data(), {codes->size()}, owner), uniques);
}

}  // namespace

void BindFactorize(nb::module_& m) { m.def("factorize_rows", &FactorizeRows); }

}  // namespace ratingd::python
