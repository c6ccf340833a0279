package embed

import (
	"bufio"
	"bytes"
	"fmt"
	"hash/crc32"
	"hash/maphash"
	"io"
	"math"
	"os"
	"strconv"
	"sync"
)

// DefaultWordVectors is where `make setup` puts the local embedder's word
// vectors: GloVe (Wikipedia and Gigaword 2014, 100 dimensions; Public Domain
// Dedication and License), its 50,000 most frequent lower-case words.
const DefaultWordVectors = "/usr/local/share/freshctx/glove-50k-100d.txt"

// WordVectorsNone turns the local embedder's word vectors off (embedder.word_vectors).
const WordVectorsNone = "none"

// WordVectors map English words to distributional vectors: words used in like
// contexts ("refund", "reimbursement"; "electricity", "power") lie near each
// other. They are read from GloVe's text format (a word and its numbers on
// each line; a fastText .vec header line is skipped), the most frequent word
// first: a word's line number stands for its frequency (see Local).
//
// Nothing in them is a pointer, and they (one byte a number, a scale per
// word, an index of the words: ~130 bytes a word) are kept outside the Go
// heap where the system allows (offHeap): a heap's collector would count them
// towards its next goal, and with GOGC 75 hold ~1.75 times their size.
type WordVectors struct {
	dims  int
	words []byte   // the words, one after another
	ends  []uint32 // word i is words[ends[i-1]:ends[i]]
	slots []int32  // open addressing by the word's hash: its index + 1, 0 for none
	seed  maphash.Seed
	q     []byte    // n*dims numbers, each an int8
	scale []float32 // per word
	id    string    // the file's CRC-32, in hex
	// common is the direction all texts share (unit length): the words' unit
	// vectors weighted by their frequency (Zipf's law: the word of rank r as
	// 1/(r+100)) and summed. Local removes it from a text's sum, as smooth
	// inverse frequency removes its corpus's first principal component (Arora,
	// Liang and Ma, 2017): without it, any two texts' sums are alike.
	common []float64
}

// Dims is the vectors' size.
func (wv *WordVectors) Dims() int { return wv.dims }

// Len is how many words have vectors.
func (wv *WordVectors) Len() int { return len(wv.ends) }

// ID names the vectors by their content: a model name holds it, so that vectors
// made with other word vectors are never compared with these.
func (wv *WordVectors) ID() string { return wv.id }

func (wv *WordVectors) word(i int32) []byte {
	start := uint32(0)
	if i > 0 {
		start = wv.ends[i-1]
	}
	return wv.words[start:wv.ends[i]]
}

// rank is a word's place in the file (its frequency rank; the header, blank
// lines and repeated words not counted), -1 if absent.
func (wv *WordVectors) rank(w string) int32 {
	mask := uint64(len(wv.slots) - 1)
	for h := maphash.String(wv.seed, w) & mask; ; h = (h + 1) & mask {
		s := wv.slots[h]
		if s == 0 {
			return -1
		}
		if string(wv.word(s-1)) == w {
			return s - 1
		}
	}
}

// insert records w as entry i, which the caller then appends to words,
// unless w is there already (then it reports false and the caller drops it).
func (wv *WordVectors) insert(w []byte, i int32) bool {
	mask := uint64(len(wv.slots) - 1)
	for h := maphash.Bytes(wv.seed, w) & mask; ; h = (h + 1) & mask {
		s := wv.slots[h]
		if s == 0 {
			wv.slots[h] = i + 1
			return true
		}
		if bytes.Equal(wv.word(s-1), w) {
			return false
		}
	}
}

// addTo adds weight times the unit vector of the word of rank r to v.
func (wv *WordVectors) addTo(v []float64, r int32, weight float64) {
	s := weight * float64(wv.scale[r])
	q := wv.q[int(r)*wv.dims : int(r+1)*wv.dims]
	for i := range v {
		v[i] += s * float64(int8(q[i]))
	}
}

var loadedVectors sync.Map // path -> *wordVectorsLoad

type wordVectorsLoad struct {
	once sync.Once
	wv   *WordVectors
	err  error
}

// LoadWordVectors reads the word vectors at path, once per process: later
// calls return the same vectors (or error). An error names the file and line.
func LoadWordVectors(path string) (*WordVectors, error) {
	l, _ := loadedVectors.LoadOrStore(path, &wordVectorsLoad{})
	ld := l.(*wordVectorsLoad)
	ld.once.Do(func() { ld.wv, ld.err = readWordVectors(path) })
	return ld.wv, ld.err
}

func readWordVectors(path string) (*WordVectors, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// First the lines (at most that many words) and the checksum, so that the
	// vectors are allocated once, at their size.
	h := crc32.NewIEEE()
	lines, buf := 0, make([]byte, 64<<10)
	for {
		n, err := f.Read(buf)
		lines += bytes.Count(buf[:n], []byte{'\n'})
		h.Write(buf[:n])
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
	}
	lines++ // a last line without its newline
	size, err := f.Seek(0, io.SeekCurrent)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	slots := 1
	for slots < 2*lines {
		slots <<= 1
	}
	// The index off the heap too, each part at its largest (the words at most
	// the file's bytes: address space, of which only what is written is
	// memory).
	wv := &WordVectors{seed: maphash.MakeSeed(),
		words: offHeap(int(size))[:0],
		ends:  offHeapOf[uint32](lines)[:0],
		scale: offHeapOf[float32](lines)[:0],
		slots: offHeapOf[int32](slots)}
	var x []float64
	for line := 1; sc.Scan(); line++ {
		word, nums, _ := bytes.Cut(bytes.TrimRight(sc.Bytes(), "\r"), []byte{' '})
		if len(word) == 0 {
			continue
		}
		if line == 1 && bytes.IndexByte(bytes.TrimSpace(nums), ' ') < 0 { // fastText's "count dims"
			continue
		}
		if wv.dims == 0 {
			wv.dims = bytes.Count(bytes.TrimSpace(nums), []byte{' '}) + 1
			x = make([]float64, wv.dims)
			wv.q = offHeap(lines * wv.dims)
		}
		n, err := parseFloats(x, nums)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, line, err)
		}
		if n != wv.dims {
			return nil, fmt.Errorf("%s:%d: %d numbers, the first line has %d", path, line, n, wv.dims)
		}
		var norm, peak float64
		for _, xi := range x {
			norm += xi * xi
			peak = math.Max(peak, math.Abs(xi))
		}
		i := int32(len(wv.ends))
		if norm == 0 || !wv.insert(word, i) {
			continue
		}
		wv.words = append(wv.words, word...)
		wv.ends = append(wv.ends, uint32(len(wv.words)))
		// unit length, in bytes: x/|x| ≈ q*scale
		wv.scale = append(wv.scale, float32(peak/127/math.Sqrt(norm)))
		q := wv.q[int(i)*wv.dims : int(i+1)*wv.dims]
		for k, xi := range x {
			q[k] = byte(int8(math.Round(xi / peak * 127)))
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(wv.ends) == 0 {
		return nil, fmt.Errorf("%s: no word vectors", path)
	}
	wv.id = fmt.Sprintf("%08x", h.Sum32())
	wv.common = make([]float64, wv.dims)
	for r := range int32(len(wv.ends)) {
		wv.addTo(wv.common, r, 1/float64(r+100))
	}
	var n float64
	for _, x := range wv.common {
		n += x * x
	}
	for i := range wv.common {
		wv.common[i] /= math.Sqrt(n)
	}
	return wv, nil
}

// parseFloats reads the space-separated numbers of b into x and returns how
// many there were (those beyond len(x) counted, not stored). Plain decimals ("-0.1234")
// are read directly, as strconv would read them to float32 precision; others
// ("1e-05") through strconv.
func parseFloats(x []float64, b []byte) (int, error) {
	n := 0
	for len(b) > 0 {
		if b[0] == ' ' {
			b = b[1:]
			continue
		}
		end := bytes.IndexByte(b, ' ')
		if end < 0 {
			end = len(b)
		}
		tok := b[:end]
		b = b[end:]
		if n >= len(x) {
			n++
			continue
		}
		v, ok := plainDecimal(tok)
		if !ok {
			f, err := strconv.ParseFloat(string(tok), 64)
			if err != nil {
				return n, err
			}
			v = f
		}
		x[n] = v
		n++
	}
	return n, nil
}

// plainDecimal reads [-]digits[.digits] of up to 18 digits.
func plainDecimal(t []byte) (float64, bool) {
	neg := len(t) > 0 && t[0] == '-'
	if neg {
		t = t[1:]
	}
	var m uint64
	digits, frac, dot := 0, 0, false
	for _, c := range t {
		switch {
		case c >= '0' && c <= '9':
			m = m*10 + uint64(c-'0')
			digits++
			if dot {
				frac++
			}
		case c == '.' && !dot:
			dot = true
		default:
			return 0, false
		}
	}
	if digits == 0 || digits > 18 {
		return 0, false
	}
	v := float64(m) / pow10[frac]
	if neg {
		v = -v
	}
	return v, true
}

var pow10 = [19]float64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18}
