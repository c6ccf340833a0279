package textutil

import (
	"strings"
	"testing"
)

func TestSentences(t *testing.T) {
	for in, want := range map[string]string{
		"One. Two! Three? Four":        "One.|Two!|Three?|Four",
		"v1.2 is out. Price 3.50 EUR.": "v1.2 is out.|Price 3.50 EUR.",
		"退款已批准。三到五天到账！好的？":             "退款已批准。|三到五天到账！|好的？",
		"line one\nline two":           "line one|line two",
		"  \n ":                        "",
	} {
		if got := strings.Join(Sentences(in), "|"); got != want {
			t.Errorf("Sentences(%q) = %q, want %q", in, got, want)
		}
	}
}
