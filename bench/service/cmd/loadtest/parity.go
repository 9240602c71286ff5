package main

import (
	"fmt"
	"io"
	"net/http"
	"strings"
)

// invalid are requests every server must refuse alike: the benchmark's invalid body
// first, then malformed, incomplete and out-of-range input of each endpoint.
var invalid = []endpoint{
	endpoints[1],
	{"malformed JSON", "POST", "/v1/users", `{"name":"Ada",`, 400},
	{"missing field", "POST", "/v1/users", `{"name":"Ada Lovelace","age":36,"role":"admin","tags":[],"address":{"street":"s","city":"c","zip":"12345"}}`, 400},
	{"bad email", "POST", "/v1/users", `{"name":"Ada Lovelace","email":"nope","age":36,"role":"admin","tags":[],"address":{"street":"s","city":"c","zip":"12345"}}`, 400},
	{"bad enum", "POST", "/v1/users", `{"name":"Ada Lovelace","email":"ada@example.com","age":36,"role":"root","tags":[],"address":{"street":"s","city":"c","zip":"12345"}}`, 400},
	{"bad pattern", "POST", "/v1/users", `{"name":"Ada Lovelace","email":"ada@example.com","age":36,"role":"admin","tags":[],"address":{"street":"s","city":"c","zip":"1234"}}`, 400},
	{"wrong type", "POST", "/v1/users", `{"name":"Ada Lovelace","email":"ada@example.com","age":"36","role":"admin","tags":[],"address":{"street":"s","city":"c","zip":"12345"}}`, 400},
	{"id too long", "GET", "/v1/users/" + strings.Repeat("x", 41), "", 400},
	{"bad boolean", "GET", "/v1/users/u-42?verbose=maybe", "", 400},
	{"limit out of range", "GET", "/v1/users?limit=0", "", 400},
	{"limit not a number", "GET", "/v1/users?limit=ten", "", 400},
	{"bad role filter", "GET", "/v1/users?role=root", "", 400},
}

// parity sends each invalid request to every server and prints the statuses; it reports
// false when a server answers one of them with another status than the expected one.
func parity(c *http.Client, servers []*server) bool {
	ok := true
	fmt.Printf("%-20s", "invalid request")
	for _, s := range servers {
		fmt.Printf(" %13s", s.name)
	}
	fmt.Println()
	for _, e := range invalid {
		fmt.Printf("%-20s", e.name)
		for _, s := range servers {
			status := 0
			if resp, err := do(c, s.url, e); err == nil {
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				status = resp.StatusCode
			}
			mark := ""
			if status != e.status {
				mark, ok = "!", false
			}
			fmt.Printf(" %12d%1s", status, mark)
		}
		fmt.Println()
	}
	if !ok {
		fmt.Println("PARITY FAILED: the servers marked ! answer otherwise than", 400)
	}
	return ok
}
