package relevance

import "testing"

// A length of time is a number before a unit of one, minutes to years, or
// until when a thing lasts; a clock time or a date alone is none.
func TestStatesLength(t *testing.T) {
	for text, want := range map[string]bool{
		"SP-7702 upgraded to 90 min":          true,
		"Carpets need 4 hours to dry":         true,
		"报告 预计 体检 后 5 个工作日 出":                 true,
		"按摩 60 分钟":                            true,
		"Late checkout until 13:00 confirmed": true,
		"a 3-hour session":                    true,
		"SP-7702 moved to Saturday 11:00":     false,
		"体检 改期 为 12 月 9 日 上午 8:30":            false,
		"2026 年 5 月":                          false,
	} {
		if got := statesLength([]rune(normalise(text))); got != want {
			t.Errorf("%q states a length: %v, want %v", text, got, want)
		}
	}
}
