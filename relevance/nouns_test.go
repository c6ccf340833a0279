package relevance

import "testing"

// 几 before two characters of the question's terms asks which of them ("几
// 年级？", "几 号楼？"); not in 茶几, a table, nor before a measure word,
// which asks how many ("还有 几 节 课？").
func TestJiAsksANoun(t *testing.T) {
	for _, c := range []struct {
		norm  string
		terms []string
		want  bool
	}{
		{"20417 几年级?", []string{"20417", "年级"}, true},
		{"1270 是几号楼?", []string{"1270", "号楼"}, true},
		{"茶几收到了吗?", []string{"茶几", "收到"}, false},
		{"还有几节课?", []string{"节课"}, false},
	} {
		if got := askedCJKNoun(c.norm, c.terms) != 0; got != c.want {
			t.Errorf("askedCJKNoun(%q) names a noun: %v, want %v", c.norm, got, c.want)
		}
	}
}
