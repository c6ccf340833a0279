package relevance

import (
	"slices"
	"testing"
)

// An acronym on one side matches its words spelled out on the other, both
// ways, with or without the stop words between; what only looks like one
// does not.
func TestAcronyms(t *testing.T) {
	for _, c := range []struct {
		question, event string
		want            bool
	}{
		{"is 2FA on?", "Two-factor authentication enabled with an authenticator app", true},
		{"what's the ETA of my parcel?", "Estimated time of arrival: 14:00", true},
		{"can I log in with SSO?", "Single sign-on configured for acme.example", true},
		{"is my KYC done?", "Know your customer check passed", true},
		{"is two-factor authentication on?", "2FA enabled", true},
		{"did the single sign-on work?", "SSO login failed: certificate expired", true},
		{"why is the login screen slow?", "TLS certificate renewed", false},        // "the" starts no run
		{"has INV-1040 been paid?", "Invoice number verified", false},              // INV is the identifier's prefix
		{"what is my ID?", "Identity document uploaded", false},                    // two letters: too many pairs
		{"how much in EUR?", "Every unpaid reminder was cancelled", false},         // a currency code
		{"is 2FA on?", "Two factors: price and delivery time, for the app", false}, // "for" is no content word
	} {
		tf := acronymMatches(c.question, []Candidate{{Text: c.event}}, []doc{newDoc(c.event)})
		if got := tf != nil && tf[0] == 1; got != c.want {
			t.Errorf("%q against %q: match %v, want %v", c.question, c.event, got, c.want)
		}
	}
	if got := acronyms("Is 2FA or MFA on, and my ID? INV-1040, OK"); !slices.Equal(got, []string{"tfa", "mfa"}) {
		t.Errorf("acronyms: %q", got)
	}
}

// A word spelled with a number first is a word, not an identifier: 2FA, 3rd
// and 10am are not order numbers; G12 and V-330 are identifiers.
func TestANumberWordIsNoIdentifier(t *testing.T) {
	for tok, want := range map[string]bool{"2fa": false, "3rd": false, "10am": false, "g12": true, "v-330": true, "12a": true, "1z88aa0312": true} {
		if got := isIdentifier(tok); got != want {
			t.Errorf("%q: identifier %v, want %v", tok, got, want)
		}
	}
}

// An acronym's analysis term hash is termHash of its term, "\x01" and the
// initials, made without building the string.
func TestAcronymHashIsTheTermsHash(t *testing.T) {
	for _, initials := range []string{"tfa", "eta", "kyc", ""} {
		if acronymHash(initials) != termHash("\x01"+initials) || acronymHash([]byte(initials)) != acronymHash(initials) {
			t.Errorf("%q: acronymHash %x, termHash %x", initials, acronymHash(initials), termHash("\x01"+initials))
		}
	}
}
