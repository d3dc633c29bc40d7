package proptest

import (
	"github.com/smithycurl/smithycurl/internal/respond"
	"github.com/smithycurl/smithycurl/internal/valuegen"
	"github.com/smithycurl/smithycurl/model"
)

// Gen generates random values of the shapes of one model (the shared
// generator of internal/valuegen).
type Gen = valuegen.Gen

// Loc is where a member travels in an HTTP message.
type Loc = respond.Loc

// Locations.
const (
	LocBody          = respond.LocBody
	LocLabel         = respond.LocLabel
	LocGreedyLabel   = respond.LocGreedyLabel
	LocQuery         = respond.LocQuery
	LocQueryParams   = respond.LocQueryParams
	LocHeader        = respond.LocHeader
	LocPrefixHeaders = respond.LocPrefixHeaders
	LocPayload       = respond.LocPayload
	LocStatus        = respond.LocStatus
)

// NewGen returns a generator for m seeded with seed.
func NewGen(m *model.Model, seed int64) *Gen { return valuegen.New(m, seed) }
