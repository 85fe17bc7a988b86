// ratingd._core.factorize_rows: pd.factorize of string columns read row by row, in C++. A
// column is a numpy array of Python objects (pandas without pyarrow, or object columns) or
// the chunks of an Arrow string array (pandas' strings with pyarrow), read in place: no
// Python object is made per value, and none is copied.
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "python/src/records.h"

namespace ratingd::python {
namespace {

// One column's values by row: a str's UTF-8 text, or nothing for any other value.
class StringColumn {
 public:
  virtual ~StringColumn() = default;
  virtual size_t size() const = 0;
  // Row i's text; false when the value is not a str. *object is the str when the column
  // holds Python objects (the unique's own object is then returned), else null.
  virtual bool Get(size_t i, std::string_view* text, PyObject** object) = 0;
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

  bool Get(size_t i, std::string_view* text, PyObject** object) override {
    // Each value is its own allocation, so the loop waits on memory: fetch ahead.
    constexpr size_t kAhead = 16;
    if (i + kAhead < size()) {
      const char* ahead = reinterpret_cast<const char*>(At(i + kAhead));
      __builtin_prefetch(ahead);
      __builtin_prefetch(ahead + 64);
    }
    PyObject* value = At(i);
    *object = value;
    if (value == last_) {  // the same object again: no second look
      *text = last_text_;
      return last_ok_;
    }
    last_ = value;
    last_ok_ = false;
    if (PyUnicode_Check(value)) {
      Py_ssize_t n = 0;
      const char* utf8 = PyUnicode_AsUTF8AndSize(value, &n);
      if (utf8 == nullptr) {
        PyErr_Clear();  // a lone surrogate: not a name the readers take
      } else {
        last_text_ = std::string_view(utf8, static_cast<size_t>(n));
        last_ok_ = true;
      }
    }
    *text = last_text_;
    return last_ok_;
  }

 private:
  PyObject* At(size_t i) const {
    return *reinterpret_cast<PyObject* const*>(static_cast<const char*>(view_.buf) +
                                               static_cast<Py_ssize_t>(i) * stride_);
  }

  Py_buffer view_{};
  bool held_ = false;
  Py_ssize_t stride_ = 0;
  PyObject* last_ = nullptr;
  std::string_view last_text_;
  bool last_ok_ = false;
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

  bool Get(size_t i, std::string_view* text, PyObject** object) override {
    while (i >= start_ + chunks_[chunk_].rows) {  // rows are read in order
      start_ += chunks_[chunk_].rows;
      ++chunk_;
    }
    const Chunk& c = chunks_[chunk_];
    const size_t j = i - start_;
    *text = std::string_view(c.data + c.offsets[j],
                             static_cast<size_t>(c.offsets[j + 1] - c.offsets[j]));
    *object = nullptr;
    return true;
  }

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
  absl::flat_hash_map<std::string_view, int64_t> index;
  nb::list uniques;
  for (size_t i = 0; i < n; ++i) {
    for (size_t c = 0; c < cols.size(); ++c) {
      std::string_view text;
      PyObject* object = nullptr;
      int64_t code = -1;
      if (cols[c]->Get(i, &text, &object)) {
        const auto [it, added] = index.try_emplace(text, static_cast<int64_t>(index.size()));
        if (added) {
          if (object != nullptr) {
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
  return nb::make_tuple(
      nb::ndarray<nb::numpy, int64_t, nb::ndim<1>>(codes->data(), {codes->size()}, owner), uniques);
}

}  // namespace

void BindFactorize(nb::module_& m) { m.def("factorize_rows", &FactorizeRows); }

}  // namespace ratingd::python
