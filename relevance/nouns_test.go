package relevance

import (
	"slices"
	"testing"
)

// 几 before two characters of the question's terms asks which of them ("几
// 年级？", "几 号楼？"); not in 茶几, a table, nor before a measure word,
// which asks how many ("还有 几 节 课？"). So does 什么 (nounPair).
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
		// (unspaced, every pair is a term: one holding a particle names no
		// thing, nor does 为什么 ask what)
		{"护照用什么寄的?", []string{"护照", "照用", "寄的"}, false},
		{"为什么不是靠窗?", []string{"不是", "靠窗"}, false},
		{"沙发是什么颜色?", []string{"沙发", "颜色"}, true},
		// (哪 with a measure word of machines and things: which one)
		{"wx-3302是哪台空调?", []string{"wx3302", "空调"}, true},
		{"哪部手机坏了?", []string{"手机", "坏"}, true},
	} {
		if got := askedCJKNoun(c.norm, c.terms) != 0; got != c.want {
			t.Errorf("askedCJKNoun(%q) names a noun: %v, want %v", c.norm, got, c.want)
		}
	}
}

// speakerWords names who said it in a question asking what was said about a
// thing, and nothing in one asking what someone said.
func TestSpeakerWords(t *testing.T) {
	for q, want := range map[string][]string{
		"what did the vet say about her weight?":     {"vet"},
		"what did Marta tell you about the oven?":    {"marta"},
		"what did the vet say?":                      nil, // (who said it is what the question names)
		"how much did the mechanic say it would be?": nil,
	} {
		if got := speakerWords(questionText(q).words); !slices.Equal(got, want) {
			t.Errorf("%q: speaker words %q, want %q", q, got, want)
		}
	}
}

// asksDeed reads "what did … do to/about …?", "what was done about …?".
func TestAsksDeed(t *testing.T) {
	for q, want := range map[string]bool{"what did you do to the laptop?": true, "what did IT do about the VPN?": true,
		"what was done about the scanner?": true, "what did my money do?": false, "what do I do now?": false, "手机 做 了 什么？": true,
		"what did they do in the last TU-3308 lesson": true, "what did you do in Paris?": true} {
		if got := asksDeed(questionText(q)); got != want {
			t.Errorf("%q asks what was done: %v, want %v", q, got, want)
		}
	}
}
