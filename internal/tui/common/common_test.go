package common

import "testing"

func TestResizeClamps(t *testing.T) {
	tests := []struct{ w, h, wantW, wantH int }{
		{0, 0, DefaultWidth, DefaultHeight},
		{-3, 30, DefaultWidth, 30},
		{10, 3, MinWidth, MinHeight},
		{200, 60, 200, 60},
	}
	for _, tt := range tests {
		c := New(true)
		c.Resize(tt.w, tt.h)
		if c.Width != tt.wantW || c.Height != tt.wantH {
			t.Errorf("Resize(%d, %d) = %dx%d, want %dx%d", tt.w, tt.h, c.Width, c.Height, tt.wantW, tt.wantH)
		}
	}
}
