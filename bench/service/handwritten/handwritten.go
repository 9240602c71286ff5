// Package handwritten is the baseline of the service benchmark: the endpoints of
// bench/service/design written by hand on net/http and encoding/json, with the same
// validation written by hand (the same checks, messages and order as the generated
// service's), the way a careful Go team writes them without a generator.
package handwritten

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/mail"
	"regexp"
	"strconv"
	"time"
	"unicode/utf8"
)

// Address is a postal address.
type Address struct {
	Street string `json:"street"`
	City   string `json:"city"`
	Zip    string `json:"zip"`
}

// CreateUserReq is the body of POST /v1/users.
type CreateUserReq struct {
	Name    string   `json:"name"`
	Email   string   `json:"email"`
	Age     int      `json:"age"`
	Role    string   `json:"role"`
	Tags    []string `json:"tags"`
	Address Address  `json:"address"`
}

// User is a user as answered.
type User struct {
	ID        string    `json:"id"`
	Name      string    `json:"name"`
	Email     string    `json:"email"`
	Age       int       `json:"age"`
	Role      string    `json:"role"`
	Tags      []string  `json:"tags"`
	Address   Address   `json:"address"`
	CreatedAt time.Time `json:"createdAt"`
}

// UserPage is a page of users.
type UserPage struct {
	Items []User  `json:"items"`
	Total int     `json:"total"`
	Next  *string `json:"next,omitempty"`
}

var zip = regexp.MustCompile(`^[0-9]{5}$`)

func validRole(r string) bool { return r == "admin" || r == "member" || r == "guest" }

func (a *Address) validate() error {
	if n := utf8.RuneCountInString(a.Street); n < 1 || n > 100 {
		return errors.New("street: length out of range [1, 100]")
	}
	if n := utf8.RuneCountInString(a.City); n < 1 || n > 60 {
		return errors.New("city: length out of range [1, 60]")
	}
	if !zip.MatchString(a.Zip) {
		return errors.New("zip: does not match pattern")
	}
	return nil
}

func (c *CreateUserReq) validate() error {
	if n := utf8.RuneCountInString(c.Name); n < 2 || n > 50 {
		return errors.New("name: length out of range [2, 50]")
	}
	if _, err := mail.ParseAddress(c.Email); err != nil {
		return errors.New("email: not a valid email")
	}
	if c.Age < 13 || c.Age > 130 {
		return errors.New("age: out of range [13, 130]")
	}
	if !validRole(c.Role) {
		return errors.New("role: must be one of [admin member guest]")
	}
	if len(c.Tags) > 8 {
		return errors.New("tags: maxItems 8")
	}
	if err := c.Address.validate(); err != nil {
		return fmt.Errorf("address: %w", err)
	}
	return nil
}

// Created is the creation time every answer carries (fixed, like the generated logic's).
var Created = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// Users are the 100 users GET /v1/users pages through.
var Users = func() []User {
	out := make([]User, 100)
	for i := range out {
		out[i] = User{
			ID: "u-" + strconv.Itoa(i), Name: "User " + strconv.Itoa(i), Email: "user" + strconv.Itoa(i) + "@example.com",
			Age: 20 + i%50, Role: "member", Tags: []string{"a", "b"},
			Address: Address{Street: "1 Main Street", City: "Springfield", Zip: "12345"}, CreatedAt: Created,
		}
	}
	return out
}()

// Handler serves the three endpoints on a ServeMux.
func Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/users", CreateUser)
	mux.HandleFunc("GET /v1/users/{id}", GetUser)
	mux.HandleFunc("GET /v1/users", ListUsers)
	return mux
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

type message struct {
	Message string `json:"message"`
}

func fail(w http.ResponseWriter, msg string) {
	writeJSON(w, http.StatusBadRequest, message{msg})
}

// CreateUser handles POST /v1/users.
func CreateUser(w http.ResponseWriter, r *http.Request) {
	var req CreateUserReq
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<20))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		fail(w, "body: "+err.Error())
		return
	}
	if err := req.validate(); err != nil {
		fail(w, err.Error())
		return
	}
	tags := req.Tags
	if tags == nil {
		tags = []string{}
	}
	writeJSON(w, http.StatusCreated, &User{
		ID: "u-1", Name: req.Name, Email: req.Email, Age: req.Age, Role: req.Role,
		Tags: tags, Address: req.Address, CreatedAt: Created,
	})
}

// GetUser handles GET /v1/users/{id}.
func GetUser(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	if n := utf8.RuneCountInString(id); n < 1 || n > 40 {
		fail(w, "id: length out of range [1, 40]")
		return
	}
	if v := r.URL.Query().Get("verbose"); v != "" {
		if _, err := strconv.ParseBool(v); err != nil {
			fail(w, "verbose: expected boolean")
			return
		}
	}
	u := Users[7]
	u.ID = id
	writeJSON(w, http.StatusOK, &u)
}

// ListUsers handles GET /v1/users.
func ListUsers(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	limit := 50
	if v := q.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil {
			fail(w, "limit: expected integer")
			return
		}
		limit = n
	}
	if limit < 1 || limit > 100 {
		fail(w, "limit: out of range [1, 100]")
		return
	}
	if v := q.Get("role"); v != "" && !validRole(v) {
		fail(w, "role: must be one of [admin member guest]")
		return
	}
	writeJSON(w, http.StatusOK, &UserPage{Items: Users[:limit], Total: len(Users)})
}
